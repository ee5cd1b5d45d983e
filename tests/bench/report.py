#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Benchmark report: turn one run's records into tables, JSON and a plot.

    tests/bench/report.py OUT_DIR

Reads OUT_DIR/raw/bench.jsonl (written by the guest) or, if the guest did
not get to write its results disk, the "BENCH {...}" lines of
OUT_DIR/console.log. Writes OUT_DIR/results.json, OUT_DIR/summary.md and
OUT_DIR/plot.svg, and prints the summary table. Plain python3, no packages.
"""

import json
import os
import random
import statistics
import sys

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))

ROW_LABELS = {
    "local": "local brd",
    "loop": "LIO tcm_loop",
    "srp-ours": "SRP ours",
    "srp-ours-poll": "SRP ours, poll queues",
    "srp-intree": "SRP in-tree",
    "iser-ours": "iSER ours",
    "iser-intree": "iSER in-tree",
    "nvmeof": "NVMe-oF RDMA",
    "nvmeof-poll": "NVMe-oF RDMA, poll queues",
}
ROW_ORDER = list(ROW_LABELS)
NETWORK_ROWS = ("srp-ours", "srp-ours-poll", "srp-intree", "iser-ours", "iser-intree",
                "nvmeof", "nvmeof-poll")
# (key, row, the row it is divided by, column heading)
PAIRS = (("srp", "srp-ours", "srp-intree", "SRP ours/in-tree"),
         ("iser", "iser-ours", "iser-intree", "iSER ours/in-tree"),
         ("srp-poll", "srp-ours-poll", "srp-ours", "SRP poll queues/none"),
         ("srp-poll-intree", "srp-ours-poll", "srp-intree", "SRP poll queues/in-tree"))
ROW_COLOURS = {
    "local": "#8c8c8c",
    "loop": "#bdbdbd",
    "srp-ours": "#1f5fa8",
    "srp-ours-poll": "#0b3a6e",
    "srp-intree": "#8fb4e0",
    "iser-ours": "#2a8a3e",
    "iser-intree": "#9fd4a8",
    "nvmeof": "#d9822b",
    "nvmeof-poll": "#a35a12",
}
SIZES = {"4k": 4096, "128k": 131072, "1m": 1048576}
METRICS = ("iops", "bw_mib", "p50_us", "p99_us", "cpu_us_per_io", "intr_per_io",
           "softirq_per_io")
HEADLINE = {
    "iops": ("iops", "IOPS", True),
    "bw": ("bw_mib", "MiB/s", True),
    "p50": ("p50_us", "p50 µs", False),
}


def read_jobs():
    """The job table, in file order: name -> dict."""
    jobs = {}
    with open(os.path.join(BENCH_DIR, "jobs")) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            name, rw, bs, nj, qd, headline, ceiling = w[:7]
            jobs[name] = {"rw": rw, "bs": bs, "bytes": SIZES.get(bs.lower()),
                          "numjobs": int(nj), "iodepth": int(qd),
                          "headline": headline, "ceiling": ceiling}
    return jobs


def read_records(out):
    """Every record of the run, and where they were read from."""
    jsonl = os.path.join(out, "raw", "bench.jsonl")
    if os.path.exists(jsonl):
        src, lines = jsonl, open(jsonl, errors="replace").read().splitlines()
    else:
        src = os.path.join(out, "console.log")
        lines = [l[6:] for l in open(src, errors="replace").read().splitlines()
                 if l.startswith("BENCH {")]
    recs = []
    for line in lines:
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass	# a line the kernel's console output broke up
    return recs, src


def host_load(out):
    """The host's 1-minute load average, sampled during the run by run."""
    try:
        loads = [float(l.split()[1]) for l in open(os.path.join(out, "hostload.txt"))
                 if len(l.split()) > 1]
    except (OSError, ValueError):
        return None
    if not loads:
        return None
    return {"samples": len(loads), "min": min(loads), "median": median(loads),
            "max": max(loads), "cpus": os.cpu_count()}


def kernel_notes(out):
    """Kernel-log trouble and a missing end, from the console log."""
    notes = []
    try:
        con = open(os.path.join(out, "console.log"), errors="replace").read().splitlines()
    except OSError:
        return ["no console log"]
    for l in con:
        if l.startswith("LAB-RESULT FAIL") or l.startswith("LAB-DMESG"):
            notes.append(l)
    if not any(l.startswith("LAB-DONE") for l in con):
        notes.append("the guest did not run to the end (crash, hang or timeout)")
    return notes


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


# Under TCG one job's repeats spread by tens of percent (the host's speed
# varies, and so does where the guest schedules fio and the soft-RoCE work),
# so a ratio of two medians alone does not say who is ahead. Resampling the
# repeats gives an interval for it; fixed seed, so a report is reproducible.
BOOT_SAMPLES = 2000
BOOT_LEVEL = 0.90
MIN_REPS_FOR_CI = 3


def ratio_interval(ours, intree):
    """BOOT_LEVEL bootstrap interval of median(ours) / median(intree), or None."""
    ours = [x for x in ours if x]
    intree = [x for x in intree if x]
    if len(ours) < MIN_REPS_FOR_CI or len(intree) < MIN_REPS_FOR_CI:
        return None
    rnd = random.Random(1)
    ratios = sorted(statistics.median(rnd.choices(ours, k=len(ours))) /
                    statistics.median(rnd.choices(intree, k=len(intree)))
                    for _ in range(BOOT_SAMPLES))
    tail = (1 - BOOT_LEVEL) / 2
    return [ratios[int(tail * BOOT_SAMPLES)], ratios[int((1 - tail) * BOOT_SAMPLES) - 1]]


def verdict(interval, higher_is_better):
    """ahead, behind, or level when the interval contains 1."""
    if not interval:
        return None
    lo, hi = interval
    if lo > 1:
        return "ahead" if higher_is_better else "behind"
    if hi < 1:
        return "behind" if higher_is_better else "ahead"
    return "level"


def ceilings(recs):
    """Raw RDMA results by (test, bytes): the best of the variants run."""
    raw = {}
    for r in recs:
        if r.get("t") != "raw" or not ("rate" in r or "lat_us" in r):
            continue
        key = (r["test"], r["bytes"])
        old = raw.get(key)
        if "rate" in r:
            better = not old or r["rate"] > old["rate"]
        else:
            better = not old or r["lat_us"] < old["lat_us"]
        if better:
            raw[key] = r
    return raw


def ceiling_of(job, raw):
    """The job's ceiling in its headline unit, or None."""
    test = job["ceiling"]
    if test.endswith("_lat"):
        r = raw.get((test, 4096))
        return r and r.get("lat_us")
    r = raw.get((test, job["bytes"]))
    if not r:
        return None
    return r["rate"] if job["headline"] == "iops" else r["bw_mib"]


def pct_of_ceiling(job, value, ceil):
    if value is None or not ceil:
        return None
    if job["headline"] == "p50":
        return 100.0 * ceil / value
    return 100.0 * value / ceil


def aggregate(recs, jobs):
    info = next((r for r in recs if r.get("t") == "info"), {})
    raw = ceilings(recs)
    rows_run = [r for r in info.get("rows", "").split() if r] or ROW_ORDER
    rows = [r for r in ROW_ORDER if r in rows_run] + [r for r in rows_run if r not in ROW_ORDER]
    na = {}
    for r in recs:
        if r.get("t") == "na" and r.get("row") != "raw":
            key = (r["row"], r.get("job") or "")
            na.setdefault(key, [])
            if r["reason"] not in na[key]:
                na[key].append(r["reason"])
    res = {}
    for name, job in jobs.items():
        if name not in info.get("jobs", name).split():
            continue
        metric, _, up = HEADLINE[job["headline"]]
        ceil = ceiling_of(job, raw)
        jr = {"spec": job, "ceiling": ceil, "rows": {}, "ratios": {}, "ratio_interval": {},
              "verdict": {}}
        values = {}
        for row in rows:
            reps = [r for r in recs if r.get("t") == "fio" and r["row"] == row and r["job"] == name]
            for r in reps:
                r["bw_mib"] = r["bw_kib"] / 1024.0
            ent = {"reps": len(reps)}
            if reps:
                ent["median"] = {m: median([r.get(m) for r in reps]) for m in METRICS}
                vals = [r.get(metric) for r in reps if r.get(metric) is not None]
                values[row] = vals
                ent["min"] = min(vals) if vals else None
                ent["max"] = max(vals) if vals else None
                ent["pct_of_ceiling"] = pct_of_ceiling(job, ent["median"][metric], ceil)
            reasons = na.get((row, name), []) + na.get((row, ""), [])
            if reasons:
                ent["na"] = reasons
            jr["rows"][row] = ent
        for fam, ours, intree, _ in PAIRS:
            a = jr["rows"].get(ours, {}).get("median", {}).get(metric)
            b = jr["rows"].get(intree, {}).get("median", {}).get(metric)
            jr["ratios"][fam] = a / b if a and b else None
            ci = ratio_interval(values.get(ours, []), values.get(intree, []))
            jr["ratio_interval"][fam] = ci
            jr["verdict"][fam] = verdict(ci, up)
        res[name] = jr
    logins = {}
    for r in recs:
        if r.get("t") == "login":
            logins.setdefault(r["row"], {})[str(r["n"])] = {
                "login_s_per_session": r["login_s"] / r["n"],
                "login_s": r["login_s"], "logout_s": r["logout_s"],
                "slab_kib_per_session": r["slab_kib"] / r["n"],
                "memfree_drop_kib_per_session": r["memfree_drop_kib"] / r["n"],
            }
    for (row, job), reasons in na.items():
        if job.startswith("login"):
            logins.setdefault(row, {}).setdefault(job[5:], {})["na"] = reasons
    probes = {}
    for r in recs:
        if r.get("t") == "probe":
            probes.setdefault(r["row"], []).append(r["ms"])
    raw_out = {"%s.%d" % k: v for k, v in raw.items()}
    events = aggregate_events(recs)
    limits = {}
    for r in recs:
        if r.get("t") == "limits":
            limits.setdefault(r["row"], {k: v for k, v in r.items() if k not in ("t", "row", "rep")})
    raw_na = sorted({r["job"] + ": " + r["reason"] for r in recs
                     if r.get("t") == "na" and r.get("row") == "raw"})
    return {"info": info, "rows": rows, "jobs": res, "logins": logins,
            "probe_ms": {r: {"median": median(v), "min": min(v), "max": max(v)}
                         for r, v in probes.items()},
            "raw": raw_out, "raw_na": raw_na, "na": {"%s %s" % k: v for k, v in na.items()},
            "events": events, "limits": limits}


def aggregate_events(recs):
    """Per job, row and kernel event (--profile runs): the median count per
    I/O over the repeats."""
    out = {}
    for r in recs:
        if r.get("t") != "events":
            continue
        ent = out.setdefault(r["job"], {}).setdefault(r["row"], {})
        for ev, v in r["per_io"].items():
            ent.setdefault(ev, []).append(v)
    return {job: {row: {ev: median(v) for ev, v in evs.items()} for row, evs in rows.items()}
            for job, rows in out.items()}


def events_md(events):
    """The --profile section: kernel events per I/O, rows side by side."""
    L = ["## Kernel events per I/O (perf stat, --profile)", "",
         "Counted on every CPU over each whole job (no ramp with --profile) and "
         "divided by the I/Os fio did; median of the repeats. Initiator, target and soft-RoCE "
         "share the guest, so a difference between two rows of one transport is "
         "their initiators' difference.", ""]
    for job, rows in events.items():
        names = [r for r in ROW_ORDER if r in rows] + [r for r in rows if r not in ROW_ORDER]
        evs = sorted({ev for r in names for ev in rows[r]})
        L.append("### %s" % job)
        L.append("")
        L += md_table(["event"] + [ROW_LABELS.get(r, r) for r in names],
                      [[ev] + [("%.2f" % rows[r][ev]) if rows[r].get(ev) is not None else "–"
                              for r in names]
                       for ev in evs])
        L.append("")
    return L


def fmt(v, metric):
    if v is None:
        return "–"
    if metric == "iops":
        return "%.0f" % v
    if metric in ("bw_mib",):
        return "%.1f" % v
    if metric in ("p50_us", "p99_us"):
        return "%.0f" % v
    if metric == "cpu_us_per_io":
        return "%.0f" % v
    if metric in ("intr_per_io", "softirq_per_io"):
        return "%.2f" % v
    return "%.3g" % v


def cell(ent, metric):
    if "median" in ent:
        return fmt(ent["median"][metric], metric)
    if ent.get("na"):
        return "n/a (%s)" % "; ".join(ent["na"])
    return "–"


def ratio_cell(jr, fam):
    r = jr["ratios"].get(fam)
    if not r:
        return "–"
    ci = jr["ratio_interval"].get(fam)
    if not ci:
        return "%.2f" % r
    return "%.2f (%.2f–%.2f, %s)" % (r, ci[0], ci[1], jr["verdict"][fam])


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def summary_md(agg, jobs, out):
    info = agg["info"]
    rows = agg["rows"]
    L = ["# Benchmark run %s" % os.path.basename(os.path.normpath(out)), ""]
    L.append("Kernel %s, our build %s, %s vCPUs (QEMU TCG), %s MiB LUNs; fio %ss "
             "(+%ss ramp) per job, %s repeat(s), rows in alternating order. "
             "Medians of the repeats; compare only within this run."
             % (info.get("kernel", "?"), info.get("version") or "?", info.get("cpus", "?"),
                info.get("size_mib", "?"), info.get("runtime", "?"), info.get("ramp", "?"),
                info.get("repeats", "?")))
    L.append("")
    hl = agg.get("host_load")
    pr = agg.get("probe_ms") or {}
    if hl or pr:
        L.append("## Conditions")
        L.append("")
        if hl:
            L.append("Host load average (1 min) during the run: min %.1f, median %.1f, max %.1f "
                     "on %d host CPUs (QEMU's two vCPU threads compete with everything else)."
                     % (hl["min"], hl["median"], hl["max"], hl["cpus"]))
            L.append("")
        if pr:
            L.append("vCPU probe: ms for a fixed CPU-bound loop in the guest before and after "
                     "each row's jobs; the higher and the wider, the more the host slowed that row.")
            L.append("")
            L += md_table(["row", "probe ms median", "min", "max"],
                          [[ROW_LABELS.get(r, r), "%.0f" % pr[r]["median"], "%.0f" % pr[r]["min"],
                            "%.0f" % pr[r]["max"]] for r in rows if r in pr])
            L.append("")
    L.append("## Summary")
    L.append("")
    L.append("Headline metric per job (↑ higher is better, ↓ lower is better); "
             "ours/in-tree (and poll queues/none, poll queues/in-tree: SRP ours with "
             "poll queues against ours without them and against in-tree) is the plain "
             "ratio of the two medians, followed by a %d%% "
             "bootstrap interval of that ratio over the repeats (with %d or more of each) "
             "and the verdict it gives: ahead or behind when the interval excludes 1, "
             "level when it does not." % (BOOT_LEVEL * 100, MIN_REPS_FOR_CI))
    L.append("")
    pairs = [p for p in PAIRS if p[1] in rows and p[2] in rows]
    head = ["job", "metric"] + [ROW_LABELS.get(r, r) for r in rows]
    for _, _, _, label in pairs:
        head.append(label)
    head.append("RDMA ceiling")
    trs = []
    for name, jr in agg["jobs"].items():
        job = jobs[name]
        metric, unit, up = HEADLINE[job["headline"]]
        tr = [name, unit + (" ↑" if up else " ↓")]
        tr += [cell(jr["rows"].get(r, {}), metric) for r in rows]
        tr += [ratio_cell(jr, f) for f, _, _, _ in pairs]
        tr.append(fmt(jr["ceiling"], metric) if jr["ceiling"] else "–")
        trs.append(tr)
    L += md_table(head, trs)
    L.append("")
    L.append("## Share of the raw RDMA ceiling")
    L.append("")
    L.append("Throughput ÷ the perftest result of the same size over the same rxe device "
             "(reads against ib_write_bw, writes against ib_read_bw); for QD1 latency, "
             "the mean ib_read_lat 4 KiB round trip ÷ p50.")
    L.append("")
    net = [r for r in rows if r in NETWORK_ROWS or r in ("local", "loop")]
    head = ["job"] + [ROW_LABELS.get(r, r) for r in net]
    trs = []
    for name, jr in agg["jobs"].items():
        tr = [name]
        for r in net:
            p = jr["rows"].get(r, {}).get("pct_of_ceiling")
            tr.append("%.1f%%" % p if p is not None else "–")
        trs.append(tr)
    L += md_table(head, trs)
    L.append("")
    L.append("## Every metric")
    L.append("")
    L.append("CPU µs/IO: busy CPU time of the whole guest (initiator, target and soft-RoCE "
             "together) per I/O, sampled in the middle of the run; intr/IO and softirq/IO: "
             "interrupts and softirqs of the whole guest per I/O over the same window (work "
             "counts that a busy host does not skew). range: min–max of the headline over "
             "the repeats.")
    for name, jr in agg["jobs"].items():
        job = jobs[name]
        metric = HEADLINE[job["headline"]][0]
        L.append("")
        L.append("### %s: %s %s, %d job(s) × QD %d" % (name, job["rw"], job["bs"],
                                                        job["numjobs"], job["iodepth"]))
        L.append("")
        head = ["row", "IOPS", "MiB/s", "p50 µs", "p99 µs", "CPU µs/IO", "intr/IO", "softirq/IO",
                "% ceiling", "reps", "range"]
        trs = []
        for r in rows:
            ent = jr["rows"].get(r, {})
            if "median" not in ent:
                trs.append([ROW_LABELS.get(r, r), cell(ent, "iops")] + [""] * 9)
                continue
            m = ent["median"]
            p = ent.get("pct_of_ceiling")
            trs.append([ROW_LABELS.get(r, r)] + [fmt(m[k], k) for k in METRICS] +
                       ["%.1f%%" % p if p is not None else "–", str(ent["reps"]),
                        "%s–%s" % (fmt(ent["min"], metric), fmt(ent["max"], metric))])
        L += md_table(head, trs)
    L.append("")
    L.append("## Logins")
    L.append("")
    L.append("N sessions (SRP: N targets told apart by initiator_ext; iSER: "
             "node.session.nr_sessions = N; NVMe-oF: N controllers) logged in at once over "
             "rxe0: wall time until every disk is there ÷ N, and the growth of Slab and drop of "
             "MemFree (after dropping caches) ÷ N. Target and initiator share the kernel, so "
             "both sides' allocations are counted.")
    L.append("")
    head = ["row", "N", "s/login", "logout s (all)", "slab KiB/login", "MemFree KiB/login"]
    trs = []
    for r in rows:
        for n, e in sorted(agg["logins"].get(r, {}).items(), key=lambda x: int(x[0])):
            if "login_s" not in e:
                trs.append([ROW_LABELS.get(r, r), n, "n/a (%s)" % "; ".join(e.get("na", [])),
                            "", "", ""])
                continue
            trs.append([ROW_LABELS.get(r, r), n, "%.2f" % e["login_s_per_session"],
                        "%.1f" % e["logout_s"], "%.0f" % e["slab_kib_per_session"],
                        "%.0f" % e["memfree_drop_kib_per_session"]])
    L += md_table(head, trs) if trs else ["(login phase not run)"]
    L.append("")
    L.append("## Raw RDMA over rxe0 (perftest, RDMA/CM, loopback)")
    L.append("")
    trs = []
    for k, v in sorted(agg["raw"].items()):
        lb = " (lower bound)" if v.get("lower_bound") else ""
        if "rate" in v:
            trs.append([v["test"], str(v["bytes"]), "%.0f msg/s%s" % (v["rate"], lb),
                        "%.1f MiB/s" % v["bw_mib"]])
        else:
            trs.append([v["test"], str(v["bytes"]), "%.1f µs mean%s" % (v["lat_us"], lb), ""])
    L.append("Wall-clock rates of the client, from a run of N and one of 3N messages "
             "(2N ÷ the difference in time), so connection set-up cancels out.")
    L.append("")
    L += md_table(["test", "bytes", "rate / latency", "bandwidth"], trs) if trs else \
        ["(not measured)"]
    for n in agg["raw_na"]:
        L.append("- n/a: %s" % n)
    if agg.get("limits"):
        L.append("")
        L.append("## Block queue limits")
        L.append("")
        L.append("Of each row's device as the benchmark found it (`/sys/block/*/queue`): "
                 "they decide into how many commands the block layer cuts a large I/O.")
        L.append("")
        keys = ("max_sectors_kb", "max_hw_sectors_kb", "max_segments", "max_segment_size",
                "nr_requests")
        names = [r for r in ROW_ORDER if r in agg["limits"]]
        L += md_table(["row"] + list(keys),
                      [[ROW_LABELS.get(r, r)] + ["–" if agg["limits"][r].get(k) is None
                                                 else str(agg["limits"][r][k]) for k in keys]
                       for r in names])
    if agg.get("events"):
        L.append("")
        L += events_md(agg["events"])
    if agg.get("notes"):
        L.append("")
        L.append("## Notes")
        L.append("")
        L += ["- " + n for n in agg["notes"]]
    return "\n".join(L) + "\n"


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_plot(agg, jobs):
    """Small multiples: one horizontal bar chart per job, plus logins."""
    rows = agg["rows"]
    login_items = []
    for r in rows:
        for n, e in sorted(agg["logins"].get(r, {}).items(), key=lambda x: int(x[0])):
            login_items.append(("%s ×%s" % (ROW_LABELS.get(r, r), n),
                                e.get("login_s_per_session"), None, None,
                                ROW_COLOURS.get(r, "#555"), "; ".join(e.get("na", []))))
    pw, bar, gap, top, left = 460, 16, 4, 34, 124
    ph = top + max(len(rows), len(login_items)) * (bar + gap) + 14
    panels = list(agg["jobs"].items())
    have_logins = bool(login_items)
    ncols = 2
    npanels = len(panels) + (1 if have_logins else 0)
    nrows = (npanels + ncols - 1) // ncols
    W, H = ncols * pw + 20, nrows * ph + 60
    S = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="20" font-size="14" font-weight="bold">%s</text>' %
         esc("rdma-initiators benchmark: medians, whiskers = min–max of %s repeat(s); "
             "QEMU TCG, compare within a panel only; ↑ higher / ↓ lower is better; "
             "» = off the scale"
             % agg["info"].get("repeats", "?"))]

    def panel(i, title, items, unit):
        x0 = 10 + (i % ncols) * pw
        y0 = 40 + (i // ncols) * ph
        S.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (x0, y0 + 14, esc(title)))
        # Scale to the network rows; the no-network references (local, loop)
        # are usually far off the scale and drawn clipped.
        refs = (ROW_LABELS["local"], ROW_LABELS["loop"])
        net = [v for v in items if v[1] is not None and v[0] not in refs]
        vmax = max([v[2] or v[1] for v in (net or [v for v in items if v[1] is not None])] +
                   [1e-9])
        span = pw - left - 80
        for j, (label, val, hi, lo, colour, why) in enumerate(items):
            y = y0 + top + j * (bar + gap) - 12
            S.append('<text x="%d" y="%d" text-anchor="end">%s</text>' %
                     (x0 + left - 6, y + bar - 4, esc(label)))
            if val is None:
                S.append('<text x="%d" y="%d" fill="#a00">%s</text>' %
                         (x0 + left + 2, y + bar - 4, esc(("n/a (%s)" % why)[:50] if why else "–")))
                continue
            w = max(1, span * val / vmax)
            clipped = w > span
            if clipped:
                w, hi, lo = span, None, None
            S.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' %
                     (x0 + left, y, w, bar, colour))
            if clipped:
                S.append('<text x="%.1f" y="%d" fill="white">»</text>' %
                         (x0 + left + w - 10, y + bar - 4))
            if lo is not None and hi is not None:
                a, b = left + span * lo / vmax, left + span * hi / vmax
                ym = y + bar / 2
                S.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>' %
                         (x0 + a, ym, x0 + b, ym))
            S.append('<text x="%.1f" y="%d">%s</text>' %
                     (x0 + left + max(w, span * (hi or 0) / vmax) + 4, y + bar - 4,
                      esc("%s %s" % (("%.3g" % val) if val < 1000 else "%.0f" % val, unit))))

    for i, (name, jr) in enumerate(panels):
        job = jobs[name]
        metric, unit, up = HEADLINE[job["headline"]]
        items = []
        for r in rows:
            ent = jr["rows"].get(r, {})
            val = ent.get("median", {}).get(metric)
            items.append((ROW_LABELS.get(r, r), val, ent.get("max"), ent.get("min"),
                          ROW_COLOURS.get(r, "#555"), "; ".join(ent.get("na", []))))
        ceil = jr["ceiling"]
        title = "%s: %s %s %d×QD%d, %s %s" % (name, job["rw"], job["bs"], job["numjobs"],
                                              job["iodepth"], unit, "↑" if up else "↓")
        if ceil:
            title += " (raw RDMA %s)" % fmt(ceil, metric)
        panel(i, title, items, unit)
    if have_logins:
        panel(len(panels), "login: seconds per session, N at once ↓",
              login_items, "s")
    S.append("</svg>")
    return "\n".join(S) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    jobs = read_jobs()
    recs, src = read_records(out)
    if not recs:
        print("bench: no results in %s" % src)
        return 1
    agg = aggregate(recs, jobs)
    agg["notes"] = kernel_notes(out)
    agg["host_load"] = host_load(out)
    agg["source"] = os.path.relpath(src, out)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(agg, f, indent=1, sort_keys=True)
    md = summary_md(agg, jobs, out)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(md)
    with open(os.path.join(out, "plot.svg"), "w") as f:
        f.write(svg_plot(agg, jobs))
    print(md.split("## Share")[0].rstrip())
    for n in agg["notes"]:
        print("note: " + n)
    print("bench: %s/{summary.md,results.json,plot.svg}" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
