"""``python -m explainer.rouge.rouge155 [ROUGE-1.5.5 flags] config [systemID]``: a drop-in for ROUGE-1.5.5.pl."""
from explainer.rouge.rouge155.files import main

raise SystemExit(main())
