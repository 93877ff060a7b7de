import sys

from explainer.cli import main

sys.exit(main())
