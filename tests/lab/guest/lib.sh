# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Guest-side library for lab scenarios (sourced by each scenario's bash).
# Every function is idempotent, so scenarios can be run alone or in any order
# within one boot. Area-specific helpers live in lib-<area>.sh.

IP0=192.0.2.1
IP1=198.51.100.1
# Global IPv6 addresses of the two paths (documentation prefix).
IP6_0=2001:db8:0:1::1
IP6_1=2001:db8:0:2::1
NETDEV0=dummy0
NETDEV1=dummy1
RXE0=rxe0
RXE1=rxe1
SRP_PORT=5555
ISER_IQN=iqn.2026-11.org.example.rdma-initiators:lab
CFS=/sys/kernel/config/target
: "${LAB_SCENARIO:=shell}"
: "${LAB_CHECKS:=/dev/null}"
: "${DRIVER:=ours}"

lab_note() { echo "[$LAB_SCENARIO $(date +%T)] $*"; }

# lab_loaded_build_id MOD: the GNU build ID of the loaded module MOD, from
# its ELF note in sysfs: namesz, descsz, type (4 bytes each, little-endian),
# the name "GNU\0", then descsz bytes of descriptor, which are the ID.
lab_loaded_build_id() {
	local hex n
	hex=$(od -An -v -tx1 /sys/module/$1/notes/.note.gnu.build-id | tr -d ' \n')
	[ ${#hex} -ge 32 ] || return 1
	n=$((16#${hex:14:2}${hex:12:2}${hex:10:2}${hex:8:2} * 2))
	[ ${#hex} -ge $((32 + n)) ] || return 1
	echo "${hex:32:n}"
}

# lab_module_is_this_build MOD: the loaded MOD has the build ID that
# /lab/build-ids gives for it (read on the host from the .ko files this
# tree's make produced): a stale or foreign module of the same name and
# version, or the in-tree one, does not.
lab_module_is_this_build() {
	local want got
	want=$(awk -v m="$1" '$1 == m { print $2 }' /lab/build-ids)
	got=$(lab_loaded_build_id "$1")
	echo "$1: loaded build ID '$got', this build's '$want'"
	[ -n "$want" ] && [ "$got" = "$want" ]
}

# Kernel log since a mark: lab_log_mark puts a unique line into the log
# (a line count would break once the ring buffer wraps); the others read
# what came after the latest mark.
LAB_LOG_MARK='^'
lab_log_mark() {
	LAB_LOG_MARK="lab-mark $LAB_SCENARIO $SECONDS $RANDOM"
	echo "<6>$LAB_LOG_MARK" > /dev/kmsg
}
lab_log_since() { dmesg | sed -n "/$LAB_LOG_MARK/,\$p"; }

# lab_udev_settle SECS: udev's event queue drains within SECS; if not,
# udevd's workers, multipathd and what they run are listed with where they
# wait (wchan and kernel stack), for the failure it is part of.
lab_udev_settle() {
	local p
	udevadm settle -t "$1" && return 0
	echo "udev's queue did not drain in $1 s; udevd, multipathd and their children:"
	for p in $(pgrep -x systemd-udevd; pgrep -x multipathd); do
		ps -o pid,ppid,stat,wchan:32,etimes,args --ppid "$p" -p "$p"
		for c in $(ls /proc/$p/task) $(pgrep -P "$p"); do
			echo "kernel stack of $c:"
			cat /proc/$c/stack 2>/dev/null
		done
	done
	return 1
}

# lab_log_count REGEX: messages since the mark matching REGEX.
lab_log_count() { lab_log_since | grep -Ec "$1"; }
# lab_log_has REGEX: one matches; if none does, show the last messages.
# (Counts rather than grep -q: under pipefail, grep -q leaving early
# fails the pipeline with SIGPIPE when the log is long.)
lab_log_has() {
	[ "$(lab_log_count "$1")" -gt 0 ] && return 0
	echo "no kernel message /$1/ since the mark; got:"
	lab_log_since | tail -15
	return 1
}
# lab_log_lacks REGEX: none matches; if one does, show the last matches.
lab_log_lacks() {
	[ "$(lab_log_count "$1")" -eq 0 ] && return 0
	lab_log_since | grep -E "$1" | tail -5
	return 1
}
# lab_log_lacks_context REGEX: like lab_log_lacks, but shows the 30
# messages before the first match, which tell why it happened.
lab_log_lacks_context() {
	[ "$(lab_log_count "$1")" -eq 0 ] && return 0
	lab_log_since | grep -E -m1 -B30 "$1" | grep -v "I/O error"
	return 1
}
# lab_no_io_errors DEV: no I/O error logged for DEV since the mark, failed
# readahead aside (REQ_RAHEAD, 1 << 19 in 6.1: fails fast on a timeout or
# reset, is never retried and nobody waits for it; udev's probes issue it).
lab_no_io_errors() {
	local l f ret=0
	while read -r l; do
		f=$(echo "$l" | sed -n 's/.* flags \(0x[0-9a-f]*\).*/\1/p')
		(( ${f:-0} & 0x80000 )) && continue
		echo "$l"
		ret=1
	done < <(lab_log_since | grep "I/O error, dev $1,")
	return $ret
}

# Connection errors: kernel messages of a connection or path that failed,
# of the SCSI error handler stepping in, or of the RDMA layer refusing
# work, by class, "NAME<TAB>REGEX" (extended; a message is of the first
# class whose REGEX it matches). Each scenario is checked after its end
# (init.sh, lab_conn_errors_check): a message of a class it does not
# declare ("# lab-provokes: NAME..." in its header) fails it, even when
# its data came back right. The messages are the drivers' own: ours
# (drivers/), the in-tree ib_srp/ib_iser (their shost_printk, pr_err and
# iser_err texts), scsi_transport_srp, scsi_transport_iscsi/libiscsi,
# the SCSI error handler, soft-RoCE, dm-multipath. Target-side messages
# (ib_srpt, LIO) are not the initiator's and are not listed.
LAB_CONN_ERRORS=(
	# ib_iser (ours): the send-queue watchdog (work posted, none completed).
	$'sq-stall\tsend queue completed none of its [0-9]+ work requests'
	# ib_iser failing a connection for what the target sent or for a
	# failed invalidation (ours: "...; failing the connection"; in-tree:
	# iser_err "conn %p failed err", remote invalidation it did not expect).
	$'iser-fail\t; failing the connection$|iser: [a-z_]+: conn [0-9a-fx]+ failed err|unexpected remote invalidation, terminating connection'
	# scsi_transport_iscsi/libiscsi: the connection failed (iscsi_conn_error_event:
	# "detected conn error (N)"), the NOP-Out ping went unanswered, the
	# session stayed down past its replacement timeout. A conn error
	# 1011 (ISCSI_ERR_CONN_FAILED) of a connection that iscsid logged out
	# and either never reported or reported in its state 4 (IN_LOGOUT) is
	# the target's disconnect after the Logout Response overtaking
	# iscsid's stop of the connection (seen at logouts with LIO, both
	# drivers, in foundation_iser, iser_basic, iser_data, iser_cycles,
	# iser_rxsize, tools_status): part of the logout, excused
	# (lab_conn_errors_check).
	$'iscsi-conn\tdetected conn error \\(|ping timeout of [0-9]+ secs expired|session recovery timed out after'
	# ib_srp and scsi_transport_srp: a channel or path failed.
	$'srp-path\tfailing the path|unresponsive; recovering|channel [0-9]+ down;|disconnected by the target|target logged out|fast_io_fail_tmo expired|dev_loss_tmo expired|reconnect attempt [0-9]+ failed|reconnect failed \\(|reconnected [0-9]+ of [0-9]+ channels|keep-alive probe|credit count negative; reconnecting|ib_srp: DREQ received|ib_srp: connection closed'
	# ib_srp: a reconnect (a host reset's, or a failed channel's back).
	$'srp-reconnect\thost reset: reconnecting|host reset failed|: reconnected$|ib_srp: reconnect succeeded|channel [0-9]+ back$|every channel is up again'
	# The SCSI error handler: aborts, LUN and host resets, timed-out or
	# offlined devices (ours: "aborting tag", "LUN reset for LUN"; in-tree:
	# "SRP abort called", "Sending SRP abort").
	$'scsi-eh\taborting tag|LUN reset for LUN|task management function 0x[0-9a-f]+ for LUN [0-9]+: (failed|no response)|SRP abort called|Sending SRP abort|SRP reset_(device|host) called|hostbyte=DID_TIME_OUT|Device offlined - not ready after error recovery|timing out command'
	# A failed work completion (ours, rdi_wc_log: "...: RECV failed:
	# remote access error (10), vendor error 0x0"; in-tree ib_srp "failed
	# SEND status", ib_iser "failure: ... vend_err").
	$'wc-error\tfailed: .* \\(-?[0-9]+\\), vendor error|failed [A-Z_ ]+ status .* for CQE|failure: .* vend_err'
	# An asynchronous QP error (ours: "channel N: QP fatal error"; in-tree
	# ib_iser "qp event", "async event").
	$'qp-error\t: QP (fatal|request|access) error$|qp event |async event .* on device |moving the QP to the error state failed'
	# soft-RoCE: a fast registration of an MR still valid (issue 40), a
	# failed send of its own.
	$'rxe\trdma_rxe: .*(not free|[Ff]ailed)|rxe_[a-z_]+: .*not free'
	# dm-multipath failing a path (an I/O error on it).
	$'mpath\tdevice-mapper: multipath: .*Failing path'
)

# lab_conn_errors_scan SCENARIO [ISCSID_LOG]: the kernel log (stdin) from
# the scenario's "lab-scenario" line on, as "CLASS<TAB>message" for each
# connection error of a class that the scenario's "# lab-provokes:" lines
# do not name; the logout races that ISCSID_LOG (iscsid's log of the
# boot) shows (see iscsi-conn) as
# "excused<TAB>message". No "lab-scenario" line: one "missing" line.
lab_conn_errors_scan() {
	local f=/lab/scenarios/$1.sh e tab=$'\t' pats='' quiet='' shut='' rep=''
	for e in "${LAB_CONN_ERRORS[@]}"; do
		[[ $e == *"$tab"* ]] || continue
		pats+="${e%%"$tab"*}"$'\037'"${e#*"$tab"}"$'\036'
	done
	[ -f "${LAB_PROVOKES_FILE:-$f}" ] &&
		quiet=$(sed -n 's/^# lab-provokes: *//p' "${LAB_PROVOKES_FILE:-$f}" | sed 's/(.*//' | tr '\n' ' ')
	[ -f "${LAB_OUT:-/lab/out}/$1.provokes" ] &&
		quiet+=" $(tr '\n' ' ' < "${LAB_OUT:-/lab/out}/$1.provokes")"
	if [ -n "$2" ] && [ -f "$2" ]; then
		shut=$(sed -n 's/^iscsid: Connection\([0-9]*:[0-9]*\) to .* is shutdown\.$/\1/p' "$2" | tr '\n' ' ')
		# state (4): iscsid's ISCSI_CONN_STATE_IN_LOGOUT
		rep=$(sed -n 's/^iscsid: Kernel reported iSCSI connection \([0-9]*:[0-9]*\) error .* state (\([0-35-9]\|[0-9][0-9]\+\))$/\1/p' "$2" | tr '\n' ' ')
	fi
	LAB_P=$pats awk -v s="$1" -v quiet=" $quiet " -v shut=" $shut " -v rep=" $rep " '
	BEGIN {
		n = split(ENVIRON["LAB_P"], e, "\036")
		for (i = 1; i <= n; i++) {
			if (e[i] == "") continue
			split(e[i], f, "\037")
			k++; nm[k] = f[1]; re[k] = f[2]
		}
	}
	{ line[NR] = $0 }
	$0 ~ (" lab-scenario " s "$") { from = NR; to = 0 }
	from && !to && NR > from && / lab-scenario [A-Za-z0-9_]+$/ { to = NR - 1 }
	END {
		if (!from) { print "missing\tno \"lab-scenario " s "\" line in the kernel log"; exit }
		for (l = from + 1; l <= (to ? to : NR); l++) {
			for (i = 1; i <= k; i++)
				if (line[l] ~ re[i]) break
			if (i > k || index(quiet, " " nm[i] " ")) continue
			if (nm[i] == "iscsi-conn" &&
			    match(line[l], /connection[0-9]+:[0-9]+: detected conn error \(1011\)/)) {
				c = substr(line[l], RSTART + 10)
				sub(/: detected.*/, "", c)
				if (index(shut, " " c " ") && !index(rep, " " c " ")) {
					print "excused\t" line[l]; continue
				}
			}
			print nm[i] "\t" line[l]
		}
	}'
}

# lab_provokes CLASS...: from here on the scenario causes connection errors
# of these LAB_CONN_ERRORS classes (for a phase that only some runs reach,
# e.g. one of --long; a scenario that always causes them says so in its
# header, "# lab-provokes:"). The whole scenario's check excuses them.
lab_provokes() {
	local c names
	names=$(for c in "${LAB_CONN_ERRORS[@]}"; do echo "${c%%$'\t'*}"; done)
	for c; do
		grep -qx -- "$c" <<< "$names" || { fail "lab_provokes: class '$c' is one of LAB_CONN_ERRORS"; continue; }
		echo "$c" >> "${LAB_OUT:-/tmp}/$LAB_SCENARIO.provokes"
	done
}

# lab_conn_errors_check SCENARIO: the check of a scenario's kernel log for
# connection errors it did not declare (run by init.sh after its end).
lab_conn_errors_check() {
	local out bad unknown c names
	names=$(for c in "${LAB_CONN_ERRORS[@]}"; do echo "${c%%$'\t'*}"; done)
	for c in $(sed -n 's/^# lab-provokes: *//p' "/lab/scenarios/$1.sh" 2>/dev/null | sed 's/(.*//'); do
		grep -qx -- "$c" <<< "$names" || unknown+=" $c"
	done
	out=$(dmesg | lab_conn_errors_scan "$1" "${LAB_OUT:-/lab/out}/iscsid.log")
	echo "$out" | awk -F'\t' '$1 == "excused" { print "LAB-INFO logout race, not counted: " $2 }'
	bad=$(echo "$out" | awk -F'\t' '$1 != "excused" && $1 != ""')
	if [ -n "$unknown" ]; then
		fail "no connection error it did not cause (kernel log)" "unknown lab-provokes class:$unknown"
	elif [ -z "$bad" ]; then
		pass "no connection error it did not cause (kernel log)"
	else
		fail "no connection error it did not cause (kernel log)" \
			"$(echo "$bad" | cut -f1 | sort | uniq -c | xargs)" \
			"$(echo "$bad" | head -6 | sed 's/^/  /')"
		echo "$bad" | head -8 | sed 's/^/    /'
	fi
}

# lab_reset_loop DEV SECS PAUSE PID KIND...: sg_reset /dev/DEV with each
# KIND (-d LUN, -t target, -b bus, -H host) in turn, one every PAUSE s, for
# SECS s or until process PID ends. Sets LAB_RESETS (sent) and
# LAB_RESETS_BAD (failed; each logged with what sg_reset said).
lab_reset_loop() {
	local dev=$1 secs=$2 pause=$3 pid=$4 out k end
	shift 4
	LAB_RESETS=0 LAB_RESETS_BAD=0
	end=$((SECONDS + secs))
	while [ $SECONDS -lt $end ] && kill -0 "$pid" 2>/dev/null; do
		k=${*:LAB_RESETS % $# + 1:1}
		if ! out=$(timeout 120 sg_reset "$k" "/dev/$dev" 2>&1); then
			LAB_RESETS_BAD=$((LAB_RESETS_BAD + 1))
			lab_note "sg_reset $k failed: $out"
		fi
		LAB_RESETS=$((LAB_RESETS + 1))
		sleep "$pause"
	done
}

# Result records: one line per named check, on the console and in the
# scenario's check list. A check that cannot run here is not passed: it is
# a SKIP with its reason, counted apart (guest/init.sh, tests/run-all).
_lab_result() {
	local up
	# when each check ended (guest uptime), for trimming the run's time:
	# results/check-times
	read -r up _ < /proc/uptime
	echo "$up $1 $LAB_SCENARIO: $2" >> "${LAB_OUT:-/tmp}/check-times"
	echo "$1 $LAB_SCENARIO: $2" >> "$LAB_CHECKS"
	echo "LAB-RESULT $1 $LAB_SCENARIO: $2" >> "${LAB_OUT:-/tmp}/results"
	echo "LAB-RESULT $1 $LAB_SCENARIO: $2"
}
# _lab_why: the lines on stdin, cut to 300 characters, as LAB-WHY lines of
# the results, which tests/lab/run prints under the FAIL before them and
# tests/run-all's summary repeats (CI shows only part of a long log, and
# the summary whole).
_lab_why() { cut -c1-300 | sed 's/^/LAB-WHY /' >> "${LAB_OUT:-/tmp}/results"; }
pass() { _lab_result PASS "$1"; }
# fail NAME [WHY...]: record FAIL; the first 8 WHY lines also go to the
# results (_lab_why).
fail() {
	_lab_result FAIL "$1"
	[ $# -gt 1 ] || return 0
	lab_note "  why: ${*:2}"
	printf '%s\n' "${@:2}" | head -8 | _lab_why
	return 0
}
# skip NAME WHY: the check NAME cannot run here, because WHY.
skip() { _lab_result SKIP "$1 ($2)"; }

# check NAME CMD...: run CMD, record PASS if it exits 0, else FAIL with its
# last lines of output: 15 on the console, the last 8 also in the results
# (_lab_why).
check() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "$name"
	else
		fail "$name" "exit $rc"
		echo "$out" | tail -15 | sed 's/^/    /'
		echo "$out" | tail -8 | _lab_why
	fi
	return $rc
}

# lab_same A B: A and B are equal, and neither is empty: a value missing on
# one side (a field absent from JSON, a sysfs file that cannot be read) is
# no match, even when the other side is missing too.
lab_same() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$1" = "$2" ] && return 0
	echo "'$1' against '$2'"
	return 1
}

# lab_pcpu_stats: "ALLOCATED FREED", the sets of per-CPU counters (one per
# SRP channel or iSER connection, the drivers' only per-CPU allocation)
# that rdi_core allocated and freed since it loaded.
lab_pcpu_stats() {
	awk '$1 == "allocated" { a = $2 } $1 == "freed" { f = $2 }
	     END { if (a != "" && f != "") print a, f }' /sys/kernel/debug/rdi_core/percpu_stats
}

# lab_pcpu_stats_flat BEFORE AFTER MIN: between two lab_pcpu_stats
# readings at least MIN sets were allocated, and as many freed.
lab_pcpu_stats_flat() {
	local a0 f0 a1 f1
	read -r a0 f0 <<< "$1"
	read -r a1 f1 <<< "$2"
	[ -n "$f0" ] && [ -n "$f1" ] || { echo "no reading: '$1', '$2'"; return 1; }
	echo "allocated +$((a1 - a0)) (at least $3), freed +$((f1 - f0))"
	[ $((a1 - a0)) -ge "$3" ] && [ $((a1 - a0)) -eq $((f1 - f0)) ]
}

# lab_wait SECS CMD...: poll CMD every 0.5 s until it succeeds or SECS pass
# (times LAB_SLOWDOWN: the debug kernel is slower).
lab_wait() {
	local end=$((SECONDS + $1 * ${LAB_SLOWDOWN:-1}))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.5
	done
}

# The lab's lying targets (srp-fake-target from tests/fake-target,
# rogue-iser from tests/rogue-iser, both on tests/rdma-target) run in the
# background, one at a time, with one line per event in LAB_TARGET_LOG:
# LISTEN once they listen, PROBE for a stale-rkey probe. LAB_TARGET_LOG
# stays readable after lab_target_stop.
LAB_TARGET_PID=
LAB_TARGET_LOG=

# lab_target_have BIN: the target binary is there and runs.
lab_target_have() {
	local out
	[ -x "$1" ] || { echo "no $1"; return 1; }
	out=$("$1" -h 2>&1)
	echo "$out" | grep -q '^usage' || { echo "$out"; return 1; }
}

# lab_target_start LOG BIN [ARGS...]: (re)start the target BIN with ARGS,
# its output in LOG (emptied first), and wait until it listens.
lab_target_start() {
	LAB_TARGET_LOG=$1
	shift
	lab_target_stop
	: > "$LAB_TARGET_LOG"
	"$@" >> "$LAB_TARGET_LOG" 2>&1 &
	LAB_TARGET_PID=$!
	lab_wait 20 grep -q '^LISTEN' "$LAB_TARGET_LOG" || {
		lab_note "${1##*/} ${*:2} did not start:"
		sed 's/^/    /' "$LAB_TARGET_LOG"
		return 1
	}
}

# lab_target_stop: stop the target (it disconnects its connections).
lab_target_stop() {
	[ -n "$LAB_TARGET_PID" ] || return 0
	kill "$LAB_TARGET_PID" 2>/dev/null
	wait "$LAB_TARGET_PID" 2>/dev/null
	LAB_TARGET_PID=
}

# lab_target_saw REGEX [SECS]: the target logged a line matching REGEX
# (extended), waiting up to SECS (default 10) seconds for it.
lab_target_saw() {
	lab_wait "${2:-10}" grep -Eq "$1" "$LAB_TARGET_LOG" || {
		echo "${LAB_TARGET_LOG##*/} has no /$1/:"
		tail -20 "$LAB_TARGET_LOG"
		return 1
	}
}

# lab_target_count REGEX: how many lines of the target's log match.
lab_target_count() { grep -Ec "$1" "$LAB_TARGET_LOG"; }

# lab_target_probe_failed [SECS]: the target's stale-rkey probe ran within
# SECS (default 30) and its work request failed; a probe that succeeded,
# or that could not run (no descriptor, no connection), fails.
lab_target_probe_failed() {
	local line
	lab_target_saw '^PROBE ' "${1:-30}" || return 1
	line=$(grep -m1 '^PROBE ' "$LAB_TARGET_LOG")
	echo "$line"
	case "$line" in
	*" status=success" | *" status=no data descriptor" | \
	*" status=connection gone" | *" status=no other connection" | \
	*" status=another probe still pending")
		return 1 ;;
	esac
}

# lab_target_probe_invalid [SECS]: the target's stale-rkey probe ran within
# SECS (default 30) and the initiator refused it for its rkey: "remote
# access error", the probe's RDMA WRITE reached a QP of the initiator that
# was up and found no valid registration under that key. Nothing else
# counts: a flush, a failed post or a connection gone say nothing about
# the rkey. Whatever the probe wrote did not land, so no canary is read.
lab_target_probe_invalid() {
	local line
	lab_target_saw '^PROBE ' "${1:-30}" || return 1
	line=$(grep -m1 '^PROBE ' "$LAB_TARGET_LOG")
	echo "$line"
	case "$line" in
	*" status=remote access error") return 0 ;;
	esac
	return 1
}

# lab_tur DEV: one TEST UNIT READY to /dev/DEV; its status. sg_turs
# --low: trixie's sg3-utils 1.48 sg_turs without it builds no CDB, sends
# nothing, prints "bad pass-through setup" and exits 0 (Debian bug
# 1118528); --low is the same command on bookworm's 1.46.
lab_tur() { sg_turs --low "/dev/$1"; }

# lab_target_lun_ok DEV BS COUNT: COUNT O_DIRECT reads of BS bytes (dd
# sizes: 64K, 1M) from the start of the target's LUN on DEV; every 512-byte
# block begins with its LBA, 8 bytes big-endian (tests/rdma-target/scsi.c).
# perl (perl-base, essential in the image) compares: an od | awk pipeline
# took 45 s of TCG time per 8 MiB.
lab_target_lun_ok() {
	local blocks
	blocks=$(( $(numfmt --from=iec "$2") / 512 * $3 ))
	timeout 120 dd if=/dev/$1 bs=$2 count=$3 iflag=direct status=none |
		perl -e 'my ($want, $n, $b) = ($ARGV[0], 0);
			 while (read(STDIN, $b, 512) == 512) {
				 my $lba = unpack("Q>", $b);
				 if ($lba != $n) { printf "block %d: %016x\n", $n, $lba; exit 1 }
				 $n++;
			 }
			 if ($n != $want) { print "$n blocks read\n"; exit 1 }' "$blocks"
}

lab_net_up() {
	[ -e /sys/class/infiniband/$RXE1 ] && return 0
	modprobe dummy numdummies=0
	ip link add $NETDEV0 type dummy 2>/dev/null
	ip link add $NETDEV1 type dummy 2>/dev/null
	ip addr add $IP0/24 dev $NETDEV0
	ip addr add $IP1/24 dev $NETDEV1
	ip addr add $IP6_0/64 dev $NETDEV0 nodad
	ip addr add $IP6_1/64 dev $NETDEV1 nodad
	ip link set $NETDEV0 up
	ip link set $NETDEV1 up
	modprobe rdma_rxe
	rdma link add $RXE0 type rxe netdev $NETDEV0
	rdma link add $RXE1 type rxe netdev $NETDEV1
	lab_wait 20 test -e /sys/class/infiniband/$RXE1/ports/1/gids/0
	# Each global address has its GID before a login goes from it.
	lab_wait 20 grep -qx "$(lab_full_v6 $IP6_0)" /sys/class/infiniband/$RXE0/ports/1/gids/*
	lab_wait 20 grep -qx "$(lab_full_v6 $IP6_1)" /sys/class/infiniband/$RXE1/ports/1/gids/*
	# IPv6 link-local addresses finish DAD before tests use them.
	lab_wait 20 sh -c "ip -6 addr show dev $NETDEV1 | grep -q 'fe80.*scope link' &&
		! ip -6 addr show dev $NETDEV1 | grep -q tentative"
}

# Link-local IPv6 address of a lab netdev (path 0 or 1).
lab_ll_addr() {
	local dev=$NETDEV0
	[ "$1" = 1 ] && dev=$NETDEV1
	ip -6 addr show dev $dev scope link | awk '/inet6/ {sub("/.*", "", $2); print $2; exit}'
}

# lab_full_v6 ADDR: an IPv6 address in the uncompressed form ("%pI6", as
# sysfs prints GIDs and ib_srpt names RDMA/CM sessions).
lab_full_v6() {
	local a=$1 head tail n i out=""
	case $a in
	*::*) head=${a%%::*} tail=${a#*::} ;;
	*) head=$a tail="" ;;
	esac
	n=$(( 8 - $(echo "$head" | tr ':' '\n' | grep -c .) - $(echo "$tail" | tr ':' '\n' | grep -c .) ))
	for i in $(echo "$head" | tr ':' ' '); do out="$out:$(printf %04x 0x$i)"; done
	for ((i = 0; i < n; i++)); do out="$out:0000"; done
	for i in $(echo "$tail" | tr ':' ' '); do out="$out:$(printf %04x 0x$i)"; done
	echo "${out#:}"
}

lab_ifindex() {
	local dev=$NETDEV0
	[ "$1" = 1 ] && dev=$NETDEV1
	cat /sys/class/net/$dev/ifindex
}

# Port GUID name of an rxe device as ib_srpt names its target ports.
_lab_rxe_guid_name() {
	cut -d: -f5-8 /sys/class/infiniband/$1/ports/1/gids/0
}

srpt_guid() {
	sed 's/^0x//' /sys/module/ib_srpt/parameters/srpt_service_guid
}

# _lab_backstore NAME INDEX KIND: a 256 MiB ramdisk LUN with a unique serial
# (unique in its first 25 hex digits, which the NAA designator uses).
_lab_backstore() {
	local d=$CFS/core/rd_mcp_0/$1
	[ -e $d/enable ] && [ "$(cat $d/enable)" = 1 ] && return 0
	mkdir -p $d
	echo rd_pages=65536 > $d/control
	echo 1 > $d/enable
	printf '%02x%02x%028x\n' "$3" "$2" 0 > $d/wwn/vpd_unit_serial
}

# lab_srpt_up [NLUNS]: LIO SRP target on both rxe ports (RDMA/CM port 5555).
lab_srpt_up() {
	local n=${1:-2} rxe port tpg i ip
	lab_net_up
	modprobe ib_srpt
	mkdir -p $CFS/srpt
	echo $SRP_PORT > $CFS/srpt/discovery_auth/rdma_cm_port
	for ((i = 0; i < n; i++)); do
		_lab_backstore srp$i $i 1
	done
	for rxe in $RXE0 $RXE1; do
		port=$(_lab_rxe_guid_name $rxe)
		tpg=$CFS/srpt/$port/$port
		[ -e $tpg/enable ] && [ "$(cat $tpg/enable)" = 1 ] && continue
		mkdir -p $tpg
		for ((i = 0; i < n; i++)); do
			mkdir -p $tpg/lun/lun_$i
			ln -s $CFS/core/rd_mcp_0/srp$i $tpg/lun/lun_$i/ 2>/dev/null
		done
		# RDMA/CM logins are known by the target-side address (IPv6
		# uncompressed).
		for ip in $IP0 $IP1 $(lab_ll_addr 0) $(lab_ll_addr 1) \
			  $(lab_full_v6 $IP6_0) $(lab_full_v6 $IP6_1); do
			mkdir -p $tpg/acls/$ip
			for ((i = 0; i < n; i++)); do
				mkdir -p $tpg/acls/$ip/lun_$i
				ln -s $tpg/lun/lun_$i $tpg/acls/$ip/lun_$i/ 2>/dev/null
			done
		done
		echo 1 > $tpg/enable
	done
}

# lab_srpt_tpg_rm TPG: disable an ib_srpt TPG and remove it: the mapped
# LUNs of its ACLs, its ACLs, its LUNs, then the TPG (the backstores stay).
# ib_srpt disables the whole port with any of its TPGs: enable another one
# (lab_srpt_up does) to take logins on it again.
lab_srpt_tpg_rm() {
	local tpg=${1%/}/ d
	[ -d "$tpg" ] || return 0
	echo 0 > "${tpg}enable" || return 1
	for d in "$tpg"acls/*/lun_* "$tpg"acls/* "$tpg"lun/lun_*; do
		[ -d "$d" ] || continue
		find "$d" -maxdepth 1 -type l -delete
		rmdir "$d" || return 1
	done
	rmdir "$tpg"
}

lab_initiator_iqn() {
	if [ ! -s /etc/iscsi/initiatorname.iscsi ]; then
		mkdir -p /etc/iscsi
		echo "InitiatorName=iqn.2026-11.org.example:lab-initiator" > /etc/iscsi/initiatorname.iscsi
	fi
	sed -n 's/^InitiatorName=//p' /etc/iscsi/initiatorname.iscsi
}

# lab_iser_target_up [NLUNS]: iSCSI target with iSER portals on both paths.
lab_iser_target_up() {
	local n=${1:-2} tpg=$CFS/iscsi/$ISER_IQN/tpgt_1 i ip iqn acl
	lab_net_up
	modprobe iscsi_target_mod
	modprobe ib_isert
	[ -e $tpg/enable ] && [ "$(cat $tpg/enable)" = 1 ] && return 0
	for ((i = 0; i < n; i++)); do
		_lab_backstore iscsi$i $i 2
	done
	mkdir -p $tpg
	for ((i = 0; i < n; i++)); do
		mkdir -p $tpg/lun/lun_$i
		ln -s $CFS/core/rd_mcp_0/iscsi$i $tpg/lun/lun_$i/ 2>/dev/null
	done
	iqn=$(lab_initiator_iqn)
	acl=$tpg/acls/$iqn
	mkdir -p $acl
	for ((i = 0; i < n; i++)); do
		mkdir -p $acl/lun_$i
		ln -s $tpg/lun/lun_$i $acl/lun_$i/ 2>/dev/null
	done
	echo 0 > $tpg/attrib/authentication
	echo 1 > $tpg/enable
	for ip in $IP0 $IP1; do
		mkdir -p $tpg/np/$ip:3260
		echo 1 > $tpg/np/$ip:3260/iser
	done
}

# The module file modprobe would load, for proving which driver is in use.
lab_module_file() { modinfo -F filename "$1" 2>/dev/null; }

_lab_load() {
	local mod=$1
	shift
	if ! modprobe "$mod" "$@"; then
		lab_note "modprobe $mod $* failed"
		return 1
	fi
	case "$DRIVER:$(lab_module_file "$mod")" in
	ours:*/updates/*|intree:*/kernel/*) return 0 ;;
	*) lab_note "$mod: wrong module for DRIVER=$DRIVER: $(lab_module_file "$mod")"
	   return 1 ;;
	esac
}

lab_srp_load() { _lab_load ib_srp "$@"; }
lab_iser_load() { _lab_load ib_iser "$@"; }

# SCSI host numbers of the ib_srp hosts, one per line.
lab_srp_hosts() {
	local h
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat $h/proc_name 2>/dev/null)" = ib_srp ] && echo "${h##*host}"
	done
}

# lab_srp_login PATH [EXTRA]: RDMA/CM login on path 0 or 1 to its IPv4
# address; prints the new SCSI host number. EXTRA is appended to the
# add_target string.
lab_srp_login() {
	local ip=$IP0
	[ "$1" = 1 ] && ip=$IP1
	lab_srp_login_dest "$1" "$ip:$SRP_PORT" "$2"
}

# lab_srp_login_dest PATH DEST [EXTRA]: RDMA/CM login on path 0 or 1 with
# dest=DEST; prints the new SCSI host number.
lab_srp_login_dest() {
	local rxe=$RXE0 extra=$3 before h g
	[ "$1" = 1 ] && rxe=$RXE1
	g=$(srpt_guid)
	before=$(lab_srp_hosts)
	echo "id_ext=$g,ioc_guid=$g,dest=$2${extra:+,$extra}" \
		> /sys/class/infiniband_srp/srp-$rxe-1/add_target || return 1
	for h in $(lab_srp_hosts); do
		echo "$before" | grep -qx "$h" || { echo "$h"; return 0; }
	done
	return 1
}

# Block devices (sdX) of a SCSI host, in LUN order.
lab_host_disks() { lab_disks_in /sys/class/scsi_host/host$1/device; }

# lab_disks_in DIR...: block devices of the SCSI devices under the host or
# session device directories DIR, in H:C:T:L order. Not in name order: sd
# names follow probe completion, so LUN 1 may be named before LUN 0.
lab_disks_in() {
	local dir d h
	for dir in "$@"; do
		for d in "$dir"/target*/*:*:*:*/block/*; do
			[ -e "$d" ] || continue
			h=${d%/block/*}
			echo "${h##*/} ${d##*/}"
		done
	done | sort -t: -k1,1n -k2,2n -k3,3n -k4,4n | cut -d' ' -f2
}

lab_iscsid_up() {
	lab_initiator_iqn >/dev/null
	pgrep -x iscsid >/dev/null && return 0
	mkdir -p /run/lock/iscsi /var/lib/iscsi
	sed -i 's|^iscsid.startup.*|iscsid.startup = /usr/sbin/iscsid|' /etc/iscsi/iscsid.conf
	# Its own session: iscsid signals its whole process group on SIGTERM.
	# Appended to: lab_conn_errors_check reads what iscsid logged of each
	# connection of the boot.
	setsid iscsid -f >>/lab/out/iscsid.log 2>&1 < /dev/null &
	# iscsid listens on an abstract unix socket.
	lab_wait 20 grep -q @ISCSIADM_ABSTRACT_NAMESPACE /proc/net/unix
}

# lab_multipathd_up: multipathd with the lab's configuration; the lines
# in LAB_MP_DEFAULTS (one setting a line) go into its defaults section.
lab_multipathd_up() {
	pgrep -x multipathd >/dev/null && return 0
	cat > /etc/multipath.conf <<MP
defaults {
	user_friendly_names yes
	find_multipaths no
	polling_interval 2
${LAB_MP_DEFAULTS:-}
}
blacklist {
	devnode "^(vd|ram|nvme|loop)"
}
MP
	modprobe dm_multipath
	multipathd -d -s >>/lab/out/multipathd.log 2>&1 &
	lab_wait 20 multipathd show status
}

# lab_multipathd_down: stop multipathd and flush every map it left behind.
lab_multipathd_down() {
	if pgrep -x multipathd >/dev/null; then
		multipathd shutdown >/dev/null 2>&1
		lab_wait 20 sh -c '! pgrep -x multipathd'
	fi
	# multipath -F leaves a map that is open, and udev's blkid opens it on
	# the change events of path reinstatement: a map left behind keeps its
	# paths' disks, and so the initiator module, in use.
	lab_wait 30 _lab_mp_flush
}
_lab_mp_flush() {
	udevadm settle --timeout=10
	multipath -F
	! dmsetup ls --target multipath | grep -qv '^No devices found'
}

# lab_unload MOD: unload MOD, allowing 30 s for its last users to go away;
# if it stays in use, show what holds it.
lab_unload() {
	local f t
	lab_wait 30 modprobe -r "$1" && return 0
	echo "$1 still in use: refcnt $(cat /sys/module/$1/refcnt)," \
		"holders: $(ls /sys/module/$1/holders | tr '\n' ' ')"
	echo "multipath maps: $(dmsetup ls --target multipath | tr '\n' ' ')"
	for f in /proc/[0-9]*/fd/*; do
		t=$(readlink "$f") || continue
		case $t in /dev/sd* | /dev/dm-* | /dev/mapper/*)
			f=${f#/proc/}
			echo "open: $t by ${f%%/*} ($(cat /proc/${f%%/*}/comm))" ;;
		esac
	done 2>/dev/null | sort -u | head -6
	ps -eo pid,stat,comm,wchan:32 | awk '$2 ~ /^D/' | head -4
	return 1
}

# LAB_IO_BOUND: the longest, in seconds, that one I/O of the data helpers
# below may take (fio's longest completion, submission to completion, of
# lab_fio_verify, lab_fio_unaligned, lab_fio_verify_for and the fio loop;
# lab_data_check's steps have LAB_DATA_STEP_BOUND). Past it the helper
# fails its check even when the data came back right: a stall is a
# failure. The value, 13 s: twice the longest I/O the
# data scenarios showed under TCG beside another guest (boot
# 20261206-221508: 6.29 s, srp_data's lab_fio_unaligned with
# cmd_sg_entries=1 ch_count=1; 5.42 s its QD32 1m-8m job; 3.64 s the
# longest elsewhere), rounded up. Those longest ones queue behind the
# job's own data in flight (up to 256 MiB), so they follow throughput,
# which a loaded host or the other guest can halve: hence twice. It is
# far below what a lost command costs (issue 40's stalls: 77-80 s; the
# SCSI command timeout: 30 s). A scenario that
# makes I/O slow on purpose (a path cut, a reset, a hostile target, a task
# management function, a stalled backend) sets its own LAB_IO_BOUND in its
# file, with its reason; LAB_ENV="LAB_IO_BOUND=..." sets it for a boot.
# The debug kernel multiplies it by its LAB_SLOWDOWN.
: "${LAB_IO_BOUND:=13}"

# _lab_io_bound_ok SECS WHAT [VAR]: SECS (a measured time) is within the
# bound in variable VAR (LAB_IO_BOUND unless given); each measurement is
# kept in $LAB_OUT/io-lat ("scenario what secs bound"), whatever the
# outcome, the lab's record of how long I/O takes. The bound scales with
# LAB_SLOWDOWN (the debug kernel), as lab_wait does.
_lab_io_bound_ok() {
	local v=${3:-LAB_IO_BOUND} b
	b=$(awk -v b="${!v}" -v s="${LAB_SLOWDOWN:-1}" 'BEGIN { print b * s }')
	echo "$LAB_SCENARIO ${2// /_} ${1:-none} $b" >> "${LAB_OUT:-/tmp}/io-lat"
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "$2: not measured"; return 1; }
	awk -v t="$1" -v b="$b" 'BEGIN { exit !(t <= b) }' && return 0
	echo "$2: ${1} s, over the bound of $b s ($v ${!v}, LAB_SLOWDOWN ${LAB_SLOWDOWN:-1})"
	return 1
}

# lab_fio_bound JSON WHAT [VAR]: fio's longest I/O in its JSON report
# (--output-format=json --output=JSON; every job, reads and writes,
# submission to completion) is within LAB_IO_BOUND, or within the bound
# in variable VAR, which a scenario that slows its I/O on purpose states
# next to its fio, with its reason (settable through LAB_ENV, so that the
# check can be seen failing). The data helpers judge their fio with it
# too; every measurement goes to $LAB_OUT/io-lat.
lab_fio_bound() {
	local lat
	# From its first "{": fio may put notes of its own before the JSON.
	lat=$(sed -n '/^{/,$p' "$1" | jq -r '[.jobs[] | .read.lat_ns.max, .write.lat_ns.max] | max' 2>/dev/null |
		awk '/^[0-9]/ { printf "%.3f\n", $1 / 1e9 }')
	_lab_io_bound_ok "$lat" "$2: longest I/O" "${3:-LAB_IO_BOUND}"
}

# _lab_fio DEV NAME [fio args]: fio on DEV with a JSON report, judged by
# lab_fio_bound; fio's own status first.
_lab_fio() {
	local dev=$1 name=$2 out rc
	shift 2
	out=$(mktemp /tmp/lab-fio.XXXXXX)
	fio --name="$name" --filename="$dev" --output-format=json --output="$out" "$@"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "fio $name on $dev: exit $rc"
	else
		lab_fio_bound "$out" "fio $name on $dev"
		rc=$?
	fi
	rm -f "$out"
	return $rc
}

# _lab_timed SECS-VAR CMD...: run CMD; SECS-VAR is how long it took.
_lab_timed() {
	local _t0=$EPOCHREALTIME _rc
	"${@:2}"
	_rc=$?
	printf -v "$1" %s "$(awk -v a="$EPOCHREALTIME" -v b="$_t0" 'BEGIN { printf "%.3f", a - b }')"
	return $_rc
}

# LAB_DATA_STEP_BOUND: the longest, in seconds, a step of lab_data_check
# may take. A step is many I/Os and file system work, not one I/O, so it
# has a bound of its own: 30 s, twice the longest step seen (14.9 s:
# srp_basic's "mount, read, unmount" of 16 MiB, boot 20261206-221508;
# 4.6 to 8.1 s elsewhere there and in boot 20261206-224346), rounded up.
# Why reading 16 MiB back takes 5 to 15 s under TCG while writing it
# takes 2 s is not known yet (not ext4's lazy inode table init: the
# step stayed at 6.8 to 8.1 s without it). Set as LAB_IO_BOUND is.
: "${LAB_DATA_STEP_BOUND:=30}"

# lab_data_check DEV: ext4 on DEV, write, remount, compare checksums; each
# step that does I/O (mkfs; mount, copy in, unmount; mount, copy out,
# unmount) within LAB_DATA_STEP_BOUND. The random data and the checksums
# are made outside the steps: they are CPU time, slow under TCG.
lab_data_check() {
	local dev=/dev/${1#/dev/} mnt holders src t1 t2 t3 sum1 sum2 ret=1
	holders=$(ls "/sys/class/block/${dev##*/}/holders" 2>/dev/null)
	if [ -n "$holders" ]; then
		echo "$dev is held by $holders (use the multipath map)"
		return 1
	fi
	mnt=$(mktemp -d)
	src=$(mktemp)
	dd if=/dev/urandom of="$src" bs=1M count=16 status=none
	sum1=$(sha256sum < "$src")
	# The inode tables and journal zeroed by mkfs itself, in its step:
	# not by ext4lazyinit in the background of the steps after it.
	if _lab_timed t1 mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" &&
	   _lab_timed t2 _lab_data_copy "$dev" "$mnt" "$src" "$mnt/data" &&
	   echo 3 > /proc/sys/vm/drop_caches &&
	   _lab_timed t3 _lab_data_copy "$dev" "$mnt" "$mnt/data" "$src.back"; then
		sum2=$(sha256sum < "$src.back")
		if [ "$sum1" != "$sum2" ]; then
			echo "checksums differ"
		else
			_lab_io_bound_ok "$t1" "ext4 on $dev: mkfs" LAB_DATA_STEP_BOUND &&
				_lab_io_bound_ok "$t2" "ext4 on $dev: mount, write, unmount" LAB_DATA_STEP_BOUND &&
				_lab_io_bound_ok "$t3" "ext4 on $dev: mount, read, unmount" LAB_DATA_STEP_BOUND &&
				ret=0
		fi
	fi
	rm -f "$src" "$src.back"
	rmdir "$mnt"
	return $ret
}
# _lab_data_copy DEV MNT FROM TO: mount DEV on MNT, copy FROM to TO, unmount.
# noinit_itable: no ext4lazyinit thread zeroing inode tables in the
# background, whose writes the timed step would count as its own (iser_data
# in boot 20261206-221508: "mount, read, unmount" took 13.3 s after mkfs).
_lab_data_copy() {
	mount -o noinit_itable "$1" "$2" || return 1
	cp "$3" "$4" || { umount "$2"; return 1; }
	umount "$2"
}

# lab_fio_verify DEV [fio args]: a short verified random read/write job,
# its longest I/O within LAB_IO_BOUND.
lab_fio_verify() {
	local dev=/dev/${1#/dev/}
	shift
	_lab_fio "$dev" verify --direct=1 --ioengine=libaio \
		--rw=randrw --bs=4k --iodepth=16 --size=32m --verify=crc32c \
		--verify_fatal=1 --do_verify=1 "$@"
}

# lab_max_seg_check DEV: the disk's queue/max_segment_size is soft-RoCE's
# DMA segment limit (ib_dma_max_seg_size(): none, 4294967295), which both
# initiators put in shost->max_segment_size. A virt boundary makes a
# request map into whole registrations, so a segment must never be cut
# shorter: 6.1 lifted the SCSI default (64 KiB) for a virt boundary by
# itself, 6.12 does not (issue 18).
lab_max_seg_check() {
	local q=/sys/class/block/${1#/dev/}/queue seg vb
	seg=$(cat $q/max_segment_size) || return 1
	vb=$(cat $q/virt_boundary_mask 2>/dev/null)
	echo "${1#/dev/}: max_segment_size $seg, virt_boundary_mask ${vb:-?}," \
		"max_hw_sectors_kb $(cat $q/max_hw_sectors_kb), max_segments $(cat $q/max_segments)"
	[ "$seg" = 4294967295 ]
}

# lab_fio_unaligned DEV [fio args]: large direct I/O from buffers 512 bytes
# past a page boundary, at disk offsets 512 bytes past a page (sequential,
# 512 KiB to 8 MiB per I/O, so each one spans many pages and, at 8 MiB,
# more than one request), written and read back with verification.
lab_fio_unaligned() {
	local dev=/dev/${1#/dev/}
	shift
	_lab_fio "$dev" unaligned --direct=1 --ioengine=libaio \
		--rw=write --bsrange=512k-8m --iomem_align=512 --offset=1049088 \
		--iodepth=8 --size=64m --verify=crc32c --verify_fatal=1 \
		--do_verify=1 "$@"
}

# lab_fio_verify_for DEV SECS OUT: the same job on 16 MiB for SECS seconds,
# fio's JSON report in OUT (for running in the background under faults),
# its longest I/O within LAB_IO_BOUND.
lab_fio_verify_for() {
	local rc
	fio --name=verify --filename="/dev/${1#/dev/}" --direct=1 --ioengine=libaio \
		--rw=randrw --bs=4k --iodepth=16 --size=16m --time_based \
		--runtime="$2" --verify=crc32c --verify_fatal=1 --do_verify=1 \
		--output-format=json --output="$3"
	rc=$?
	[ $rc -eq 0 ] || { echo "fio verify on /dev/${1#/dev/}: exit $rc"; return $rc; }
	lab_fio_bound "$3" "fio verify on /dev/${1#/dev/}"
}

# lab_fio_loop_start DEV OUT: verified fio jobs on DEV (lab_fio_verify's,
# 10 s each), one after another in the background until lab_fio_loop_stop,
# a line for each in OUT (fio's errors, or its longest I/O). For I/O that
# must last exactly as long as a scenario's faults, whatever they take
# under TCG. LAB_FIO_LOOP is the loop's pid: alive while every job so far
# verified clean with its longest I/O within LAB_IO_BOUND.
lab_fio_loop_start() {
	local dev=/dev/${1#/dev/} out=$2
	rm -f /tmp/lab-fio-loop.stop
	: > "$out"
	(
		n=0
		while [ ! -e /tmp/lab-fio-loop.stop ]; do
			_lab_fio "$dev" loop --direct=1 \
				--ioengine=libaio --rw=randrw --bs=4k --iodepth=16 \
				--size=32m --verify=crc32c --verify_fatal=1 \
				--do_verify=1 --time_based --runtime=10 \
				>>"$out" 2>&1 || exit
			n=$((n + 1))
		done
		echo "fio loop: $n jobs verified clean, each I/O within $LAB_IO_BOUND s" >>"$out"
		[ $n -gt 0 ]
	) &
	LAB_FIO_LOOP=$!
}

# lab_fio_loop_stop: let the loop's current job finish and end it; its
# status is 0 when at least one job ran and every job verified clean
# within LAB_IO_BOUND, else the first failing job's (1 when none ran).
lab_fio_loop_stop() {
	touch /tmp/lab-fio-loop.stop
	wait "$LAB_FIO_LOOP"
}

# lab_slab_settle: free what can be freed before slab usage is read: the
# page cache, dentries and inodes (sysfs lookups leave them behind), what
# RCU callbacks and kfree_rcu() batches (up to 5 s) hold, and SLUB's
# per-CPU slabs, whose objects /proc/slabinfo counts as active whether in
# use or not (writing a cache's "shrink" flushes them to the node lists).
lab_slab_settle() {
	local f
	udevadm settle
	sync
	_lab_drop_caches
	sleep 6
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 > "$f"
	done 2>/dev/null
}

# _lab_drop_caches: drop clean caches until the dentries stop falling. One
# write does not free them all: the kernel (6.1 drop_slab_node()) stops
# shrinking once a pass frees little, a recently used dentry survives its
# first pass, and a directory's dentry is freed only after its children's.
# So a removed device's sysfs directory could outlive a settle, keeping its
# kernfs nodes, names and inodes alive (a SCSI host's tree lingered after
# srp_cycles in 2 of 4 runs, with no open file under /sys).
_lab_drop_caches() {
	local i n prev=
	for ((i = 0; i < 20; i++)); do
		echo 3 > /proc/sys/vm/drop_caches
		n=$(awk '$1 == "dentry" { print $2 }' /proc/slabinfo)
		[ "$n" = "$prev" ] && break
		prev=$n
	done
}

# lab_slab_caches: "cache active-objects object-size" of every slab
# cache, sorted by name.
lab_slab_caches() {
	awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo | sort
}

# lab_slab_diff BEFORE AFTER: "cache objects bytes" of each cache whose
# active objects changed between two lab_slab_caches listings.
lab_slab_diff() {
	awk 'NR == FNR { n[$1] = $2; sz[$1] = $3; next }
	     { d = $2 - n[$1]; sz[$1] = $3; delete n[$1]
	       if (d) print $1, d, d * $3 }
	     END { for (c in n) if (n[c]) print c, -n[c], -n[c] * sz[c] }' "$1" "$2"
}

# Allocation stacks of live slab objects, for leak checks that name a
# culprit. They need SLUB's user tracking in the boot: a scenario that uses
# them says "# lab-kargs: slub_debug=U" in its header, and SLUB then lists
# the live objects of every cache by allocation stack in debugfs
# (slab/CACHE/alloc_traces: a "count site ..." line, the stack one frame a
# line, a blank line). SLUB records at most 16 frames of a stack.

# lab_slab_sites_save FILE: settled (lab_slab_settle), "count<TAB>cache<TAB>
# ours<TAB>stack" of every allocation stack of every cache, ours = 1 when a
# frame is in ib_srp, ib_iser or rdi_core, frames joined by " < ". Fails
# when no cache is traced: a leak check without stacks would pass blind.
# vmap_area is left out: a freed vmalloc area's vmap_area object lives on
# as a descriptor of free address space (merged into the free tree, with
# the stack of the allocation it once described), so its count follows
# the fragmentation of the vmalloc space, not live allocations (+1+1 under
# our CQ creation in an srp_cycles run whose areas were all freed). What
# of ours uses vmalloc (rxe's queues of our CQs and QPs) also allocates
# traced kmalloc objects through the same stack, which the gate sees.
lab_slab_sites_save() {
	local f c
	lab_slab_settle
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	for f in /sys/kernel/debug/slab/*/alloc_traces; do
		[ -r "$f" ] || continue
		c=${f%/alloc_traces}
		[ "${c##*/}" = vmap_area ] && continue
		awk -v c="${c##*/}" -v OFS='\t' '
			function flush() {
				if (n) print n, c, (st ~ /\[(ib_srp|ib_iser|rdi_core)\]/), st
				n = 0
			}
			/^ *[0-9]+ / { flush(); n = $1; st = $2; next }
			/^ +[^ ]/ { sub(/^ +/, ""); st = st " < " $0; next }
			{ flush() }
			END { flush() }' "$f"
	done | awk -F'\t' -v OFS='\t' '{ n[$2 FS $3 FS $4] += $1 }
		END { for (k in n) print n[k], k }' > "$1"
	[ -s "$1" ] || { echo "no allocation stacks: is slub_debug=U on?"; return 1; }
}

# lab_slab_sites_grown A B: "growth<TAB>cache<TAB>ours<TAB>stack" of each
# stack with more live objects in lab_slab_sites_save reading B than in A.
lab_slab_sites_grown() {
	awk -F'\t' -v OFS='\t' 'NR == FNR { n[$2 FS $3 FS $4] = $1; next }
		$1 > n[$2 FS $3 FS $4] { print $1 - n[$2 FS $3 FS $4], $2, $3, $4 }' "$1" "$2" |
		sort -t$'\t' -k1,1nr
}

# lab_slab_sites_steady A B C: "cache +a+b<TAB>ours<TAB>stack" of each stack
# that gained live objects both from reading A to B and from B to C (the two
# halves of a run of cycles): a leak grows in each half, an object that
# happens to be alive at one reading (a teardown still under way) does not.
lab_slab_sites_steady() {
	join -t$'\t' \
		<(lab_slab_sites_grown "$1" "$2" | awk -F'\t' -v OFS='\t' '{ print $2 "|" $4, $1, $3 }' | sort -t$'\t' -k1,1) \
		<(lab_slab_sites_grown "$2" "$3" | awk -F'\t' -v OFS='\t' '{ print $2 "|" $4, $1 }' | sort -t$'\t' -k1,1) |
		awk -F'\t' -v OFS='\t' '{ c = $1; sub(/\|.*/, "", c); st = $1; sub(/^[^|]*\|/, "", st)
			printf "%s +%d+%d\t%s\t%s\n", c, $2, $4, $3, st }'
}

# lab_slab_leak_check NAME A B C: the leak gate of a run of cycles read at
# A, B (half way) and C. Fails NAME when an allocation stack through ib_srp,
# ib_iser or rdi_core gained live objects in each half, whatever the count,
# and prints each such stack. Steady growth elsewhere (no frame of ours) is
# noted with its stacks, for a comparison run with DRIVER=intree to show
# whose it is; it does not fail here.
lab_slab_leak_check() {
	local name=$1 steady ours
	steady=$(lab_slab_sites_steady "$2" "$3" "$4")
	ours=$(echo "$steady" | awk -F'\t' '$2 == 1')
	if [ -z "$ours" ]; then
		pass "$name"
	else
		fail "$name" "$(echo "$ours" | cut -f1 | paste -sd' ')"
		echo "$ours" | _lab_stacks_note "leak"
		lab_note "open files and working directories under /sys:"
		_lab_sys_holders | head -20
	fi
	echo "$steady" | awk -F'\t' '$2 == 0 && $1 != ""' | head -8 |
		_lab_stacks_note "grew in both halves, no frame of ours"
}

# _lab_sys_holders: "pid (comm): path" of each open file or working
# directory under /sys (what may keep removed sysfs nodes alive).
_lab_sys_holders() {
	local f t p
	for f in /proc/[0-9]*/fd/* /proc/[0-9]*/cwd; do
		t=$(readlink "$f") || continue
		[[ $t == /sys/* ]] || continue
		p=${f#/proc/}
		p=${p%%/*}
		echo "$p ($(cat /proc/$p/comm 2>/dev/null)): $t"
	done 2>/dev/null
}

# lab_slab_traced_ours: frames in our modules among the allocation stacks
# of live slab objects, read as they are (no settle): while something of
# ours is live, more than 0 says the leak gate can see our allocations.
lab_slab_traced_ours() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	cat /sys/kernel/debug/slab/*/alloc_traces 2>/dev/null |
		grep -cE '\[(ib_srp|ib_iser|rdi_core)\]'
}

# _lab_stacks_note WHAT: "what<TAB>ours<TAB>stack" lines as notes, each
# stack a frame a line.
_lab_stacks_note() {
	local what st
	while IFS=$'\t' read -r what _ st; do
		lab_note "$1: $what"
		echo "$st" | sed 's/ < /\n/g' | sed 's/^/        /'
	done
}
