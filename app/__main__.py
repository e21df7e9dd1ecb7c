"""`python -m app serve|plan|tickets|stations|mcp|eval-intent …`"""

from app.cli import main

raise SystemExit(main())
