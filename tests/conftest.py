"""Every test run keeps its data (journal, records) out of the user's home."""

import os
import tempfile


def pytest_configure(config):
    os.environ["KIKIMIMI_DATA"] = tempfile.mkdtemp(prefix="kikimimi-tests-")
