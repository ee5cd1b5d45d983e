#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The benchmark report's verdict logic (tests/bench/report.py), on made-up
repeats: TAP "ok N - what" / "not ok N - what" lines like the C tests, and the
plan "1..N" last, once every check ran: a test that stops early has none."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
sys.dont_write_bytecode = True
import report  # noqa: E402

n = 0
failed = 0


def check(cond, what):
    global n, failed
    n += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))


ours_fast = [110, 112, 111, 113, 109]
intree = [100, 101, 99, 102, 100]
noisy = [80, 120, 95, 105, 130]

ci = report.ratio_interval(ours_fast, intree)
check(ci and ci[0] > 1, "clearly faster repeats: the interval lies above 1")
check(report.verdict(ci, True) == "ahead", "faster IOPS: ahead")
check(report.verdict(ci, False) == "behind", "higher latency: behind")
ci = report.ratio_interval(intree, ours_fast)
check(report.verdict(ci, True) == "behind", "slower IOPS: behind")
ci = report.ratio_interval(noisy, intree)
check(ci and ci[0] < 1 < ci[1] and report.verdict(ci, True) == "level",
      "spread repeats straddling the other row: level")
check(report.ratio_interval([100, 101], intree) is None,
      "fewer than %d repeats: no interval" % report.MIN_REPS_FOR_CI)
check(report.verdict(None, True) is None, "no interval: no verdict")
check(report.ratio_interval(noisy, intree) == report.ratio_interval(noisy, intree),
      "the interval is reproducible (fixed seed)")
check(report.ratio_interval([100, None, 101, 102], [0, 100, 100, 100]) is not None,
      "missing and zero values are left out")
print("1..%d" % n)
sys.exit(1 if failed else 0)
