"""The Priest's console on a tablet: a web page served for the running table (issue 25).

    kikimimi console --web [--listen ADDR:PORT]     # or: kikimimi play --web [ADDR:PORT]

`server` is one more client of the table's control socket (like the terminal console), `render` makes the
page's snapshot from the terminal console's own panels, `access` keeps the evening's code, `serve` starts
it; `static/` is the page (plain HTML, CSS and JS, no build step).
"""
