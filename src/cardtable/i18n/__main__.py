"""``python -m cardtable.i18n extract|update|compile|check`` (``tool.py``)."""

import sys

from cardtable.i18n.tool import main

sys.exit(main(sys.argv[1:]))
