"""Run every benchmark in bench/ (one run each, in a fresh interpreter) and print their output.

`make bench` calls this. Each bench_*.py prints its own medians and ratios against sacreBLEU / rouge-score
measured in the same run; the latest figures are copied into docs/benchmarks.md by hand. bench_first_view.py
starts the real server on localhost and drives Chromium and thirty websocket sessions (a few minutes).
"""
import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
failed = 0
for script in sorted(here.glob("bench_*.py")):
    print(f"\n===== {script.name} =====", flush=True)
    rc = subprocess.call([sys.executable, str(script)], cwd=here.parent)
    failed += rc != 0
sys.exit(1 if failed else 0)
