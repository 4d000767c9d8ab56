import sys

from kikimimi.app.cli import main

sys.exit(main())
