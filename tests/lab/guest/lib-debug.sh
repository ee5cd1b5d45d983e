# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The debug lab kernel's checks (KERNEL=debug, tests/lab/run --kernel debug),
# sourced by init.sh. After each scenario:
#
# - kmemleak scans; an unreferenced object whose allocation stack has a
#   frame of ib_srp, ib_iser or rdi_core (by name, or by an address inside
#   where one of them was loaded, for a module unloaded since) fails
#   "<scenario>: debug: no leak from ib_srp/ib_iser/rdi_core" with its
#   backtrace, if a second scan still finds it unreferenced (module
#   addresses come from a udev rule on each module load: a module loaded
#   and unloaded within udev's latency has none, and its leaks land in
#   the list without a frame of ours, which fails too);
# - the scenario's kernel log is cut into reports (KASAN, KFENCE, lockdep,
#   DEBUG_OBJECTS, sleeping in atomic context, WARN, BUG, hung task, ...);
#   one with a frame of ours fails "<scenario>: debug: no kernel report
#   from ib_srp/ib_iser/rdi_core", printed whole;
# - the other reports and leaks fail "<scenario>: debug: no kernel report
#   or leak without a frame of ours", listed apart: rerun the scenario with
#   --driver intree to tell whether the lab or the kernel raises them
#   without our drivers. Nothing is excused but init.sh's known_splats,
#   which are listed as LAB-INFO.
#
# Reports and leaks go to $LAB_OUT/<scenario>.debug (results/ on the host)
# and, prefixed LAB-DMESG, to the console.

# A frame of ours is "[ib_srp]", "[ib_iser]" or "[rdi_core]": a regex
# literal in each awk program (passed with -v, gawk eats its backslashes
# and the bracket expression left matches every line).
DEBUG_MODMAP=${DEBUG_MODMAP:-/run/lab-modmap}
KMEMLEAK=/sys/kernel/debug/kmemleak

# debug_setup: before udev: unpack the debug kernel's modules (fourth
# disk), record where modules are loaded (udev, on each load), baseline
# kmemleak.
debug_setup() {
	local kver
	kver=$(uname -r)
	if [ ! -d "/lib/modules/$kver/kernel" ]; then
		# lib/ is a symlink to usr/lib: keep it one.
		tar -xf /dev/vdd -C / --keep-directory-symlink ||
			echo "LAB-FATAL: cannot unpack the debug kernel's modules" >/dev/console
	fi
	mkdir -p /etc/udev/rules.d
	# Each module's load address and size, for leaks allocated by a module
	# that is gone by the scan (kmemleak then prints a bare address).
	cat > /etc/udev/rules.d/99-lab-modmap.rules <<-'RULE'
	ACTION=="add", SUBSYSTEM=="module", RUN+="/bin/sh -c 'grep ^%k[[:space:]] /proc/modules >> /run/lab-modmap'"
	RULE
	: > "$DEBUG_MODMAP"
}

# debug_baseline: after boot, before the first scenario: what kmemleak
# finds now predates every scenario; it is listed, then cleared.
debug_baseline() {
	if [ ! -w "$KMEMLEAK" ]; then
		echo "LAB-INFO debug: kmemleak is not available" >/dev/console
		return
	fi
	# kmemleak reports only objects older than 5 s: let the boot's last
	# allocations age, or the first scenario would answer for them.
	sleep 5
	echo scan > "$KMEMLEAK"
	grep -c '^unreferenced object' "$KMEMLEAK" |
		sed 's/^/LAB-INFO debug: kmemleak objects at boot, before any scenario (cleared): /' >/dev/console
	cat "$KMEMLEAK" > "$LAB_OUT/boot.kmemleak"
	echo clear > "$KMEMLEAK"
	echo "LAB-INFO debug: $(grep -h 'lock-classes\|debug_locks' /proc/lockdep_stats 2>/dev/null | tr -s ' ' | paste -sd, -)" >/dev/console
}

# debug_begin NAME: mark the kernel log where the scenario starts (a mark
# of its own, should a boot run a scenario twice).
DEBUG_SEQ=0
debug_begin() {
	DEBUG_SEQ=$((DEBUG_SEQ + 1))
	DEBUG_MARK="LAB-MARK begin $1 #$DEBUG_SEQ"
	echo "$DEBUG_MARK" > /dev/kmsg
}

# debug_modmap: our modules' address ranges ever seen, "name start end"
# (16 hex digits each, so that they compare as strings).
debug_modmap() {
	local name size addr
	{ cat "$DEBUG_MODMAP"; cat /proc/modules; } 2>/dev/null |
		awk '$1 ~ /^(ib_srp|ib_iser|rdi_core)$/ && $6 ~ /^0x/ && $6 !~ /^0x0+$/ { print $1, $2, $6 }' |
		sort -u | while read -r name size addr; do
			printf '%s %016x %016x\n' "$name" "$((addr))" "$((addr + size))"
		done
}

# debug_reports FILE PATTERN: split a kernel log (stdin) into reports,
# one block each, separated by a line "LAB-REPORT-END"; blocks matching
# PATTERN (the known splats) go to FILE.known instead.
debug_reports() {
	awk -v known="$1.known" -v pat="$2" '
	function flush(   i, text) {
		if (!n) return
		text = ""
		for (i = 0; i < n; i++) text = text blk[i] "\n"
		if (pat != "" && text ~ pat && text !~ /\[(ib_srp|ib_iser|rdi_core)\]/)
			printf "%s", text > known
		else
			printf "%sLAB-REPORT-END\n", text
		n = 0; mode = ""
	}
	{ line = $0; sub(/^\[ *[0-9.]+\] /, "", line) }
	line ~ /------------\[ cut here \]------------/ { flush(); mode = "cut"; blk[n++] = $0; next }
	mode == "cut" { blk[n++] = $0; if (line ~ /---\[ end trace/ || n > 400) flush(); next }
	line ~ /BUG:|WARNING:|Oops|general protection|kernel BUG at|Kernel panic|UBSAN:|KASAN:|KFENCE:|ODEBUG:|refcount_t:|list_(add|del) corruption|blocked for more than|sleeping function called from invalid context|scheduling while atomic|possible (circular|recursive) locking|inconsistent lock state|lock inversion|DEBUG_LOCKS_WARN_ON|kmemleak: .*(disabled|Cannot)|Kernel memory leak detector disabled|rcu_.*detected stalls?|INFO: task/ {
		if (mode == "kasan" && line !~ /^BUG: KASAN|^BUG: KFENCE/) { blk[n++] = $0; next }
		flush()
		mode = (line ~ /^BUG: (KASAN|KFENCE)/) ? "kasan" : "trace"
		blk[n++] = $0
		next
	}
	mode == "kasan" { blk[n++] = $0; if (line ~ /^=+$/ || n > 400) flush(); next }
	mode == "trace" { blk[n++] = $0; if (line ~ /<\/TASK>|---\[ end trace/ || n > 400) flush(); next }
	END { flush() }'
}

# debug_kmemleak_read OUT: scan, then the unreferenced objects, one block
# each ending in "LAB-REPORT-END", into OUT.
debug_kmemleak_read() {
	echo scan > "$KMEMLEAK" 2>/dev/null || return 1
	awk '/^unreferenced object/ { if (n) print "LAB-REPORT-END"; n = 1 }
	     n { print }
	     END { if (n) print "LAB-REPORT-END" }' "$KMEMLEAK" > "$1"
}

# debug_split FILE OURS OTHER: the blocks of FILE with a frame of ours (by
# name, or a bare address inside one of our modules' ranges: a module
# unloaded since) to OURS, the others to OTHER, same format.
debug_split() {
	debug_modmap > "$DEBUG_MODMAP.ranges"
	awk -v o="$2" -v x="$3" '
	FILENAME != ARGV[2] { name[++nm] = $1; lo[nm] = $2; hi[nm] = $3; next }
	function inours(a,   i) {
		a = tolower(a); sub(/^0x/, "", a)
		while (length(a) < 16) a = "0" a
		for (i = 1; i <= nm; i++) if (a >= lo[i] && a < hi[i]) return name[i]
		return ""
	}
	/^LAB-REPORT-END$/ {
		for (i = 0; i < k; i++) print b[i] > (hit ? o : x)
		print > (hit ? o : x)
		k = 0; hit = 0; next
	}
	{ b[k++] = $0
	  if ($0 ~ /\[(ib_srp|ib_iser|rdi_core)\]/) hit = 1
	  else if (match($0, /\] 0x[0-9a-f]+$/)) {
		mod = inours(substr($0, RSTART + 2))
		if (mod != "") { hit = 1; b[k - 1] = $0 " (in " mod ", unloaded since)" }
	  } }' "$DEBUG_MODMAP.ranges" "$1"
	touch "$2" "$3"
}

# debug_show TITLE FILE: print FILE's blocks (at most 80 lines each) to
# the console and the scenario's debug file.
debug_show() {
	{
		echo "== $1"
		awk '/^LAB-REPORT-END$/ { print "--"; k = 0; next } ++k <= 80' "$2"
	} | tee -a "$LAB_OUT/$s.debug" | sed 's/^/LAB-DMESG /' >/dev/console
}

# debug_end NAME KNOWN_PATTERN: the scenario's leaks and reports, as results.
debug_end() {
	local s=$1 pat=$2 d=$LAB_OUT/$1.debug-work n
	mkdir -p "$d"
	: > "$LAB_OUT/$s.debug"
	cat /proc/modules >> "$DEBUG_MODMAP" 2>/dev/null
	# Reports in the scenario's part of the kernel log.
	dmesg | awk -v mark="$DEBUG_MARK" 'index($0, mark) { on = 1; next } on' |
		debug_reports "$d/reports" "$pat" > "$d/reports"
	if [ -s "$d/reports.known" ]; then
		grep -m1 -E 'WARNING:|BUG:' "$d/reports.known" |
			sed 's/^/LAB-INFO known kernel splat, not ours: /' >/dev/console
	fi
	debug_split "$d/reports" "$d/reports.ours" "$d/reports.other"
	# Leaks. kmemleak reports only objects older than 5 s: the scenario's
	# last ones (its logout, say) must age, or the next scenario would
	# answer for them. A second scan confirms what the first found (an
	# object whose only pointer sat in a register or in flight is
	# referenced again by then).
	sleep 5
	if [ -w "$KMEMLEAK" ] && debug_kmemleak_read "$d/leaks1"; then
		if [ -s "$d/leaks1" ]; then
			debug_kmemleak_read "$d/leaks"
		else
			: > "$d/leaks"
		fi
		debug_split "$d/leaks" "$d/leaks.ours" "$d/leaks.other"
		echo clear > "$KMEMLEAK"
		result "PASS $s: debug: kmemleak scanned"
	else
		: > "$d/leaks.ours"
		: > "$d/leaks.other"
		result "FAIL $s: debug: kmemleak scanned (kmemleak off: $(dmesg | grep -m1 -i 'kmemleak.*disabled'))"
	fi
	if [ -s "$d/leaks.ours" ]; then
		n=$(grep -c '^unreferenced object' "$d/leaks.ours")
		result "FAIL $s: debug: no leak from ib_srp/ib_iser/rdi_core ($n unreferenced objects)"
		debug_show "$s: kmemleak, unreferenced objects allocated by our code" "$d/leaks.ours"
	else
		result "PASS $s: debug: no leak from ib_srp/ib_iser/rdi_core"
	fi
	if [ -s "$d/reports.ours" ]; then
		n=$(grep -c '^LAB-REPORT-END' "$d/reports.ours")
		result "FAIL $s: debug: no kernel report from ib_srp/ib_iser/rdi_core ($n reports)"
		debug_show "$s: kernel reports with a frame of ours" "$d/reports.ours"
	else
		result "PASS $s: debug: no kernel report from ib_srp/ib_iser/rdi_core"
	fi
	if [ -s "$d/reports.other" ] || [ -s "$d/leaks.other" ]; then
		n=$(cat "$d/reports.other" "$d/leaks.other" | grep -c '^LAB-REPORT-END')
		result "FAIL $s: debug: no kernel report or leak without a frame of ours ($n; compare: tests/lab/run --kernel debug --driver intree $s)"
		[ -s "$d/reports.other" ] && debug_show "$s: kernel reports without a frame of ours" "$d/reports.other"
		[ -s "$d/leaks.other" ] && debug_show "$s: kmemleak, unreferenced objects without a frame of ours" "$d/leaks.other"
	else
		result "PASS $s: debug: no kernel report or leak without a frame of ours"
	fi
	if grep -q 'debug_locks: *0' /proc/lockdep_stats 2>/dev/null && [ ! -e /run/lab-lockdep-off ]; then
		touch /run/lab-lockdep-off
		echo "LAB-INFO debug: lockdep turned itself off after $s's report: later scenarios of this boot run without lock checking" >/dev/console
	fi
}
