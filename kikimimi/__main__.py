import sys

from kikimimi.cli import main

sys.exit(main())
