"""`python -m app serve|plan|tickets|stations|eval-intent …`"""

from app.cli import main

raise SystemExit(main())
