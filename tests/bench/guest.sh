# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Benchmark, guest side. tests/bench/run puts this file in the lab payload as
# the scenario "bench"; the lab's init.sh sources it after /lab/lib.sh in a
# guest booted with DRIVER=intree (nothing in updates/), and this script loads
# our modules or the in-tree ones by path itself, so both run in one boot.
#
# Every measurement is one JSON record, printed as "BENCH {...}" on the
# console (so a crash still leaves what was measured) and appended to
# $LAB_OUT/bench.jsonl. Records: info, raw (RDMA ceiling), fio, login,
# probe (vCPU speed around each row), na (a row or job that could not run,
# with the reason). Nothing here asserts a number: a row that fails is
# reported as n/a and the run carries on.
#
# Parameters come from /lab/bench.conf (written by tests/bench/run):
# RUNTIME RAMP REPEATS ROWS JOBS LOGINS RAW_SECS PROFILE.

. /lab/bench.conf

BENCH_JSONL=$LAB_OUT/bench.jsonl
BENCH_RAW=$LAB_OUT/fio
BENCH_CMD_OUT=$BENCH_RAW/cmd.out
BENCH_NQN=nqn.2026-11.org.example.rdma-initiators:bench
BENCH_NVME_PORT=4420
# Poll queues of the -poll rows (srp-ours-poll: poll_queues, nvmeof-poll:
# nr_poll_queues): one per vCPU.
BENCH_POLL_QUEUES=2
BENCH_SIZE_MIB=256		# = lab_srpt_up's and lab_iser_target_up's rd_mcp LUNs
BENCH_LOOP_WWN=naa.5001405bec000001
BENCH_LOOP_INIT=naa.5001405bec000002
mkdir -p "$BENCH_RAW"

# Reason a row could not be set up, set by the *_up functions.
why=
# Block device of the row that is up.
dev=
# Rows that hung in the kernel: "row=reason" words, never retried.
dead=

bench_emit() {
	echo "BENCH $1"
	echo "$1" >> "$BENCH_JSONL"
}

# bench_na ROW REP JOB REASON: ROW (or only JOB of it) did not run.
bench_na() {
	bench_emit "$(jq -nc --arg row "$1" --argjson rep "$2" --arg job "$3" \
		--arg why "$4" '{t: "na", row: $row, rep: $rep, job: $job, reason: $why}')"
	lab_note "n/a: $1 ${3:-} (rep $2): $4"
}

# bench_run_for SECS CMD...: run CMD in the background, its output into
# $BENCH_CMD_OUT, and wait at most SECS for it. Returns CMD's status, or 124
# if it is still running then; a command stuck in the kernel cannot be
# killed, so it is left behind (never call this inside $(...): the stuck
# command would hold the pipe open).
bench_run_for() {
	local secs=$1 pid end
	shift
	"$@" > "$BENCH_CMD_OUT" 2>&1 &
	pid=$!
	end=$((SECONDS + secs))
	while kill -0 $pid 2>/dev/null; do
		if [ $SECONDS -ge $end ]; then
			kill -9 $pid 2>/dev/null
			return 124
		fi
		sleep 0.2
	done
	wait $pid
}

# The last line of what the last bench_run_for command said.
bench_cmd_err() { grep -v '^Logging in' "$BENCH_CMD_OUT" | tail -1 | cut -c1-160; }

bench_now() { date +%s.%N; }

# bench_has N CMD...: CMD prints at least N lines (for lab_wait).
bench_has() {
	local n=$1
	shift
	[ "$("$@" | wc -l)" -ge "$n" ]
}

# bench_empty CMD...: CMD prints nothing (for lab_wait).
bench_empty() { [ -z "$("$@")" ]; }

bench_dead() {
	local w
	for w in $dead; do
		[ "${w%%=*}" = "$1" ] && { echo "${w#*=}"; return 0; }
	done
	return 1
}

bench_kill_row() { dead="$dead $1=$(echo "$2" | tr ' ' '_')"; }

# --- modules ---------------------------------------------------------------

# bench_mod_flavour MOD: "ours" or "intree" for a loaded module, by its
# out-of-tree taint flag.
bench_mod_flavour() {
	if grep -q O "/sys/module/$1/taint" 2>/dev/null; then echo ours; else echo intree; fi
}

# bench_mod_unload MOD: remove MOD once its last user is gone.
bench_mod_unload() {
	[ -e "/sys/module/$1" ] || return 0
	lab_wait 30 rmmod "$1" || { why="rmmod $1: $(rmmod "$1" 2>&1)"; return 1; }
}

# bench_mod_load MOD ours|intree: load MOD of that flavour (our build from
# /lab/ko by path, after modprobe of its in-tree dependencies; the in-tree
# one by modprobe), unloading the other flavour first.
bench_mod_load() {
	local mod=$1 kind=$2 dep err
	if [ -e "/sys/module/$mod" ]; then
		[ "$(bench_mod_flavour "$mod")" = "$kind" ] && return 0
		bench_mod_unload "$mod" || return 1
	fi
	if [ "$kind" = ours ]; then
		[ -f "/lab/ko/$mod.ko" ] || { why="$mod.ko was not built"; return 1; }
		for dep in $(modinfo -F depends "/lab/ko/$mod.ko" | tr , ' '); do
			[ -e "/sys/module/$dep" ] && continue
			if [ -f "/lab/ko/$dep.ko" ]; then
				err=$(insmod "/lab/ko/$dep.ko" 2>&1)
			else
				err=$(modprobe "$dep" 2>&1)
			fi || { why="loading $dep: $err"; return 1; }
		done
		err=$(insmod "/lab/ko/$mod.ko" 2>&1) || { why="insmod $mod.ko: $err"; return 1; }
	else
		err=$(modprobe "$mod" 2>&1) || { why="modprobe $mod: $err"; return 1; }
	fi
	[ "$(bench_mod_flavour "$mod")" = "$kind" ] ||
		{ why="$mod loaded, but not the $kind build"; return 1; }
}

# --- targets (set up once) -------------------------------------------------

bench_nvmet_up() {
	local d=/sys/kernel/config/nvmet s p
	modprobe brd rd_nr=1 rd_size=$((BENCH_SIZE_MIB * 1024)) || return 1
	# Give brd its pages now, like the rd_mcp LUNs have theirs.
	dd if=/dev/zero of=/dev/ram0 bs=1M count=$BENCH_SIZE_MIB oflag=direct status=none
	modprobe nvmet && modprobe nvmet-rdma || return 1
	s=$d/subsystems/$BENCH_NQN
	p=$d/ports/1
	mkdir -p "$s/namespaces/1" "$p"
	echo 1 > "$s/attr_allow_any_host"
	echo -n /dev/ram0 > "$s/namespaces/1/device_path"
	echo 1 > "$s/namespaces/1/enable"
	echo rdma > "$p/addr_trtype"
	echo ipv4 > "$p/addr_adrfam"
	echo "$IP0" > "$p/addr_traddr"
	echo $BENCH_NVME_PORT > "$p/addr_trsvcid"
	ln -s "$s" "$p/subsystems/$BENCH_NQN"
	modprobe nvme-rdma
}

# The SRP LUN's backstore, exported again through tcm_loop: LIO and SCSI
# with no RDMA in between.
bench_loop_up() {
	local t=$CFS/loopback/$BENCH_LOOP_WWN/tpgt_1
	modprobe tcm_loop || return 1
	mkdir -p "$t" || return 1
	# The nexus first: linking the LUN makes the SCSI host scan it.
	echo "$BENCH_LOOP_INIT" > "$t/nexus" || return 1
	mkdir -p "$t/lun/lun_0" || return 1
	ln -s "$CFS/core/rd_mcp_0/srp0" "$t/lun/lun_0/"
}

bench_setup() {
	lab_net_up
	lab_srpt_up 1
	lab_iser_target_up 1
	bench_iscsid_restart
	bench_nvmet_up || lab_note "NVMe-oF target set-up failed"
	bench_loop_up || lab_note "tcm_loop set-up failed"
	iscsiadm -m node -o new -T "$ISER_IQN" -p "$IP0:3260" -I iser >/dev/null 2>&1
}

# --- rows: <kind>_up sets $dev or $why, <kind>_down undoes it ---------------

bench_scheduler_none() { echo none > "/sys/block/${1#/dev/}/queue/scheduler" 2>/dev/null; true; }

# bench_limits ROW REP: the block queue limits of the row's device, which
# decide how the block layer cuts large I/Os into commands.
bench_limits() {
	local q=/sys/block/${dev#/dev/}/queue a args=()
	for a in max_sectors_kb max_hw_sectors_kb max_segments max_segment_size nr_requests; do
		args+=(--argjson "$a" "$(cat "$q/$a" 2>/dev/null || echo null)")
	done
	bench_emit "$(jq -nc --arg row "$1" --argjson rep "$2" "${args[@]}" \
		'{t: "limits", row: $row, rep: $rep, max_sectors_kb: $max_sectors_kb,
		  max_hw_sectors_kb: $max_hw_sectors_kb, max_segments: $max_segments,
		  max_segment_size: $max_segment_size, nr_requests: $nr_requests}')"
}

bench_hosts_named() {
	local h
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = "$1" ] && echo "${h##*host}"
	done
}

# bench_srp_add N [OPTS]: N RDMA/CM logins on path 0, told apart by
# initiator_ext, with OPTS appended to each add_target string.
bench_srp_add() {
	local g i
	g=$(srpt_guid)
	for ((i = 1; i <= $1; i++)); do
		echo "id_ext=$g,ioc_guid=$g,dest=$IP0:$SRP_PORT,initiator_ext=$(printf %x "$i")${2:+,$2}" \
			> /sys/class/infiniband_srp/srp-$RXE0-1/add_target || return 1
	done
}

bench_srp_disks() {
	local h
	for h in $(lab_srp_hosts); do
		lab_host_disks "$h"
	done
}

bench_srp_logout() {
	local p
	for p in /sys/class/srp_remote_ports/*/delete; do
		[ -e "$p" ] && echo 1 > "$p"
	done
	lab_wait 120 bench_empty lab_srp_hosts
}

# srp_up ours|intree [OPTS]: one login, OPTS appended to its add_target string.
srp_up() {
	bench_mod_load ib_srp "$1" || return 1
	bench_run_for 90 bench_srp_add 1 "${2:-}"
	case $? in
	0) ;;
	124) why="login hung"; return 2 ;;
	*) why="login failed: $(bench_cmd_err)"; return 1 ;;
	esac
	lab_wait 60 bench_has 1 bench_srp_disks || { why="no disk after login"; return 1; }
	dev=/dev/$(bench_srp_disks | head -1)
}

srp_down() {
	bench_run_for 150 bench_srp_logout || { why="logout hung"; return 2; }
	bench_mod_unload ib_srp
}

bench_iser_disks() {
	local d
	for d in /sys/class/iscsi_session/session*/device/target*/*:*:*:*/block/*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

# iscsid keeps a transport's kernel handle; start it afresh whenever the
# ib_iser module under it changes. It runs in a session of its own: on
# SIGTERM iscsid signals its whole process group, which would otherwise be
# this script.
bench_iscsid_restart() {
	local pid
	for pid in $(pidof iscsid); do kill "$pid"; done
	lab_wait 10 sh -c '! pidof iscsid'
	lab_initiator_iqn >/dev/null
	mkdir -p /run/lock/iscsi /var/lib/iscsi
	sed -i 's|^iscsid.startup.*|iscsid.startup = /usr/sbin/iscsid|' /etc/iscsi/iscsid.conf
	setsid iscsid -f >>"$LAB_OUT/iscsid.log" 2>&1 < /dev/null &
	lab_wait 20 grep -q '@ISCSIADM_ABSTRACT_NAMESPACE' /proc/net/unix
}

bench_iser_sessions() {
	iscsiadm -m node -T "$ISER_IQN" -p "$IP0:3260" -I iser -o update \
		-n node.session.nr_sessions -v "$1" >/dev/null
}

bench_iser_login() { iscsiadm -m node -T "$ISER_IQN" -p "$IP0:3260" -I iser --login; }
bench_iser_logout() { iscsiadm -m node -T "$ISER_IQN" -p "$IP0:3260" -I iser --logout; }

iser_up() {
	bench_mod_load ib_iser "$1" || return 1
	bench_iscsid_restart
	bench_iser_sessions 1
	bench_run_for 90 bench_iser_login
	case $? in
	0) ;;
	124) why="login hung"; return 2 ;;
	*) why="login failed: $(bench_cmd_err)"; return 1 ;;
	esac
	lab_wait 60 bench_has 1 bench_iser_disks || { why="no disk after login"; return 1; }
	dev=/dev/$(bench_iser_disks | head -1)
}

iser_down() {
	bench_run_for 120 bench_iser_logout || { why="logout failed or hung"; return 2; }
	bench_mod_unload ib_iser
}

bench_nvme_disks() {
	local b
	for b in /sys/block/nvme*n*; do
		[[ ${b##*/} =~ ^nvme[0-9]+n[0-9]+$ ]] && echo "${b##*/}"
	done
}

# Live NVMe-oF controllers of our subsystem (several share one namespace
# block device under native multipath).
bench_nvme_ctrls() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$BENCH_NQN" ] &&
			[ "$(cat "$c/state" 2>/dev/null)" = live ] && echo "${c##*/}"
	done
}

# bench_nvme_connect N [OPTS]: N controllers, straight through
# /dev/nvme-fabrics (bookworm's nvme-cli refuses a second one as "already
# connected"), OPTS appended to each connect string.
bench_nvme_connect() {
	local i
	for ((i = 0; i < $1; i++)); do
		echo "transport=rdma,traddr=$IP0,trsvcid=$BENCH_NVME_PORT,nqn=$BENCH_NQN,duplicate_connect${2:+,$2}" \
			> /dev/nvme-fabrics || return 1
	done
}

bench_nvme_disconnect() {
	local c
	for c in $(bench_nvme_ctrls); do
		echo 1 > "/sys/class/nvme/$c/delete_controller"
	done
	lab_wait 60 bench_empty bench_nvme_ctrls
}

# nvme_up [OPTS]: one controller, OPTS appended to its connect string.
nvme_up() {
	[ -e /sys/kernel/config/nvmet/ports/1/subsystems/$BENCH_NQN ] || { why="nvmet target not set up"; return 1; }
	bench_run_for 90 bench_nvme_connect 1 "${1:-}"
	case $? in
	0) ;;
	124) why="connect hung"; return 2 ;;
	*) why="connect failed: $(bench_cmd_err)"; return 1 ;;
	esac
	lab_wait 30 bench_has 1 bench_nvme_disks || { why="no namespace after connect"; return 1; }
	dev=/dev/$(bench_nvme_disks | head -1)
}

nvme_down() {
	bench_run_for 120 bench_nvme_disconnect || { why="disconnect hung or failed"; return 2; }
}

local_up() {
	[ -b /dev/ram0 ] || { why="no brd /dev/ram0"; return 1; }
	dev=/dev/ram0
}
local_down() { true; }

loop_up() {
	local h
	h=$(bench_hosts_named tcm_loopback | head -1)
	[ -n "$h" ] || { why="tcm_loop not set up"; return 1; }
	lab_wait 30 bench_has 1 lab_host_disks "$h" || { why="no tcm_loop disk"; return 1; }
	dev=/dev/$(lab_host_disks "$h" | head -1)
}
loop_down() { true; }

# bench_row_up ROW / bench_row_down ROW: dispatch on the row name.
bench_row_up() {
	why=
	dev=
	case $1 in
	srp-ours) srp_up ours ;;
	srp-ours-poll) srp_up ours "poll_queues=$BENCH_POLL_QUEUES" ;;
	srp-intree) srp_up intree ;;
	iser-ours) iser_up ours ;;
	iser-intree) iser_up intree ;;
	nvmeof) nvme_up ;;
	nvmeof-poll) nvme_up "nr_poll_queues=$BENCH_POLL_QUEUES" ;;
	local) local_up ;;
	loop) loop_up ;;
	*) why="unknown row"; return 1 ;;
	esac
}

bench_row_down() {
	why=
	case $1 in
	srp-*) srp_down ;;
	iser-*) iser_down ;;
	nvmeof*) nvme_down ;;
	*) true ;;
	esac
}

# --- measurements ----------------------------------------------------------

# bench_sample: "TICKS INTR SOFTIRQ" of the whole guest (initiator, target
# and soft-RoCE all run here): busy CPU time in USER_HZ ticks (all but idle
# and iowait), interrupts and softirqs run since boot. Interrupts and
# softirqs per I/O count work, not time, so a busy host does not skew them.
bench_sample() {
	awk '/^cpu / { t = $2 + $3 + $4 + $7 + $8 + $9 }
	     /^intr / { i = $2 } /^softirq / { s = $2 }
	     END { print t, i, s }' /proc/stat
}

# bench_fio ROW REP JOB RW BS NUMJOBS IODEPTH [ENGINE]: one fio run on $dev
# (ENGINE hipri: io_uring polled I/O, else libaio); prints one fio record,
# or n/a. CPU is sampled in the middle of the run (after the
# ramp, half a second short of the end) and divided by the I/Os fio counted
# at its mean rate over that window.
bench_fio() {
	local row=$1 rep=$2 job=$3 rw=$4 bs=$5 nj=$6 qd=$7 engine=(--ioengine=libaio)
	local out pid c1 c2 i1 i2 s1 s2 t1 t2 end dir=read rc
	out=$BENCH_RAW/$row.$job.$rep.json
	case $rw in *write) dir="write" ;; esac
	[ "${8:-}" = hipri ] && engine=(--ioengine=io_uring --hipri)
	[ "${PROFILE:-0}" = 1 ] && bench_count_start "$out.events"
	bench_count_ctl enable
	fio --name="$job" --filename="$dev" --direct=1 "${engine[@]}" \
		--rw="$rw" --bs="$bs" --numjobs="$nj" --iodepth="$qd" \
		--group_reporting --time_based --runtime="$RUNTIME" --ramp_time="$RAMP" \
		--norandommap --randrepeat=0 --lat_percentiles=1 --percentile_list=50:99 \
		--output-format=json --output="$out" >/dev/null 2>"$out.err" &
	pid=$!
	sleep "$RAMP.25"
	read -r c1 i1 s1 < <(bench_sample)
	t1=$(bench_now)
	sleep "$(awk -v r="$RUNTIME" 'BEGIN { print (r > 1 ? r - 0.5 : r / 2) }')"
	read -r c2 i2 s2 < <(bench_sample)
	t2=$(bench_now)
	end=$((SECONDS + RUNTIME + RAMP + 60))
	while kill -0 $pid 2>/dev/null; do
		if [ $SECONDS -ge $end ]; then
			kill -9 $pid 2>/dev/null
			bench_count_stop
			bench_na "$row" "$rep" "$job" "fio hung (I/O stuck)"
			return 2
		fi
		sleep 0.2
	done
	wait $pid
	rc=$?
	bench_count_ctl disable
	bench_count_stop
	if [ $rc -ne 0 ] || ! jq -e ".jobs[0].$dir.iops > 0" "$out" >/dev/null 2>&1; then
		bench_na "$row" "$rep" "$job" "fio failed (exit $rc): $(tail -1 "$out.err" | cut -c1-120)"
		return 1
	fi
	bench_emit "$(jq -c --arg row "$row" --argjson rep "$rep" --arg job "$job" \
		--arg dir "$dir" --arg dev "$dev" \
		--argjson ticks $((c2 - c1)) --argjson intr $((i2 - i1)) \
		--argjson softirq $((s2 - s1)) \
		--argjson win "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')" '
		.jobs[0] as $j | $j[$dir] as $d |
		($d.lat_ns.percentile // $d.clat_ns.percentile) as $pct |
		($d.iops * $win) as $n |
		{t: "fio", row: $row, job: $job, rep: $rep, dev: $dev,
		 iops: $d.iops, bw_kib: $d.bw,
		 p50_us: ($pct["50.000000"] / 1000), p99_us: ($pct["99.000000"] / 1000),
		 pct_of: (if $d.lat_ns.percentile then "lat" else "clat" end),
		 lat_mean_us: ($d.lat_ns.mean / 1000), ios: $d.total_ios,
		 fio_cpu_pct: ($j.usr_cpu + $j.sys_cpu),
		 cpu_us_per_io: (if $n > 0 then ($ticks * 10000) / $n else null end),
		 intr_per_io: (if $n > 0 then $intr / $n else null end),
		 softirq_per_io: (if $n > 0 then $softirq / $n else null end)}' "$out")"
	[ -s "$out.events" ] || return 0
	# Counted over the whole job (--profile runs it without a ramp), so
	# divided by every I/O fio did.
	bench_emit "$(jq -c --arg row "$row" --argjson rep "$rep" --arg job "$job" \
		--arg dir "$dir" --rawfile ev "$out.events" '
		(.jobs[0][$dir].total_ios | if . > 0 then . else null end) as $n |
		{t: "events", row: $row, job: $job, rep: $rep,
		 per_io: ($ev | split("\n") | map(split(",")) | map(select(length > 2 and (.[0] | test("^[0-9]+$"))))
			  | map({key: .[2], value: (if $n then (.[0] | tonumber) / $n else null end)})
			  | from_entries)}' "$out")"
}

# Kernel events counted per I/O by --profile: allocations, interrupts,
# softirq runs, CQ polls and passes, context switches, work items, SCSI
# commands, lock contentions (a spinlock, mutex or rwsem found taken), and
# posts to the send and receive queues.
# Counting is exact under TCG; sampling is not (a cpu-clock
# sample that falls in an interrupts-off stretch is taken once, late, and
# the stretch's other periods are lost, so busy kernel paths vanish from
# the profile and idle is over-counted).
BENCH_EVENTS="kmem:kmalloc kmem:kmem_cache_alloc kmem:mm_page_alloc irq:irq_handler_entry
	irq:softirq_entry rdma_core:cq_poll rdma_core:cq_process sched:sched_switch
	workqueue:workqueue_execute_start scsi:scsi_dispatch_cmd_start
	lock:contention_begin bench:post_send bench:post_recv"

# Kprobes behind the bench:* events above: every ib_post_send() and
# ib_post_recv() call on soft-RoCE, by initiator and target (one call may
# carry a chain of work requests: it is one doorbell).
BENCH_KPROBES="post_send=rxe_post_send post_recv=rxe_post_recv"

# bench_kprobes: define BENCH_KPROBES once rdma_rxe is loaded; a symbol
# this kernel lacks just leaves its event uncounted.
bench_kprobes() {
	local kp
	for kp in $BENCH_KPROBES; do
		[ -d "/sys/kernel/tracing/events/bench/${kp%%=*}" ] && continue
		echo "p:bench/${kp%%=*} ${kp#*=}" >> /sys/kernel/tracing/kprobe_events 2>/dev/null ||
			lab_note "no kprobe on ${kp#*=}: bench:${kp%%=*} not counted"
	done
}

BENCH_PERF_PID=
BENCH_PERF_CTL=/tmp/bench-perf.ctl
BENCH_PERF_ACK=/tmp/bench-perf.ack

# bench_count_start OUT: perf stat counting BENCH_EVENTS (those this kernel
# has) on every CPU, disabled until bench_count_ctl enables it, its
# "count,unit,event,..." lines into OUT when bench_count_stop ends it.
# Returns once perf answers on its control FIFO: under TCG perf takes
# seconds to start, which must not fall in the measured window.
bench_count_start() {
	local ev args=()
	bench_kprobes
	for ev in $BENCH_EVENTS; do
		[ -d "/sys/kernel/tracing/events/${ev%%:*}/${ev#*:}" ] && args+=(-e "$ev")
	done
	rm -f "$BENCH_PERF_CTL" "$BENCH_PERF_ACK"
	mkfifo "$BENCH_PERF_CTL" "$BENCH_PERF_ACK" || return
	perf stat -a -x, -D -1 --control "fifo:$BENCH_PERF_CTL,$BENCH_PERF_ACK" \
		"${args[@]}" -o "$1" -- sleep 3600 >/dev/null 2>&1 &
	BENCH_PERF_PID=$!
	bench_count_ctl disable
}

# bench_count_ctl enable|disable: switch the counters, wait for perf's ack
# (no-op without a running perf stat).
bench_count_ctl() {
	[ -n "$BENCH_PERF_PID" ] || return 0
	timeout 60 sh -c "echo $1 > $BENCH_PERF_CTL && head -n1 $BENCH_PERF_ACK >/dev/null" ||
		lab_note "perf stat did not answer '$1'"
}

bench_count_stop() {
	[ -n "$BENCH_PERF_PID" ] || return 0
	# perf stat prints its counts when its workload ends (SIGINT is
	# ignored in a background job, by perf's child too).
	pkill -TERM -P "$BENCH_PERF_PID" sleep
	wait "$BENCH_PERF_PID" 2>/dev/null
	BENCH_PERF_PID=
	rm -f "$BENCH_PERF_CTL" "$BENCH_PERF_ACK"
}

# bench_jobs ROW REP: every job of $JOBS on the row's device.
bench_jobs() {
	local row=$1 rep=$2 name rw bs nj qd engine
	for name in $JOBS; do
		read -r _ rw bs nj qd _ _ engine < <(awk -v n="$name" '$1 == n' /lab/bench.jobs)
		[ -n "$rw" ] || { bench_na "$row" "$rep" "$name" "unknown job"; continue; }
		lab_note "$row rep $rep: $name on $dev"
		bench_fio "$row" "$rep" "$name" "$rw" "$bs" "$nj" "$qd" "$engine"
		[ $? -eq 2 ] && { bench_kill_row "$row" "fio hung"; return 2; }
	done
}

# bench_probe ROW REP: time a fixed CPU-bound loop. The guest cannot see the
# host's load, but a busy host slows every vCPU, and this shows by how much
# while each row ran.
bench_probe() {
	local t0 t1
	t0=$(bench_now)
	awk 'BEGIN { for (i = 0; i < 200000; i++) s += i * i }'
	t1=$(bench_now)
	bench_emit "$(jq -nc --arg row "$1" --argjson rep "$2" --argjson t0 "$t0" --argjson t1 "$t1" \
		'{t: "probe", row: $row, rep: $rep, ms: (($t1 - $t0) * 1000)}')"
}

# bench_row ROW REP: set the row up, run the jobs, take it down.
bench_row() {
	local row=$1 rep=$2 r rc
	if r=$(bench_dead "$row"); then
		bench_na "$row" "$rep" "" "$(echo "$r" | tr _ ' ') earlier"
		return
	fi
	bench_row_up "$row"
	rc=$?
	if [ $rc -ne 0 ]; then
		bench_na "$row" "$rep" "" "$why"
		[ $rc -eq 2 ] && bench_kill_row "$row" "$why"
		bench_row_down "$row" >/dev/null 2>&1
		return
	fi
	bench_scheduler_none "$dev"
	bench_limits "$row" "$rep"
	bench_probe "$row" "$rep"
	bench_jobs "$row" "$rep"
	bench_probe "$row" "$rep"
	bench_row_down "$row"
	rc=$?
	[ $rc -ne 0 ] && lab_note "$row: teardown: $why"
	[ $rc -eq 2 ] && bench_kill_row "$row" "$why"
}

# bench_perftest TEST SIZE ITERS ARGS: one perftest client run over rxe0
# loopback (RDMA/CM) against a server started here; prints the client's wall
# time in seconds, keeps its output.
bench_perftest() {
	local t=$1 size=$2 n=$3 args=$4 spid t0 t1 try
	# The server may not listen yet when the client connects: try again.
	for try in 1 2 3; do
		ib_"$t" -d $RXE0 -F -R -s "$size" -n "$n" $args >/dev/null 2>&1 &
		spid=$!
		sleep 2
		t0=$(bench_now)
		if timeout 120 ib_"$t" -d $RXE0 -F -R -s "$size" -n "$n" $args "$IP0" \
			> "$BENCH_RAW/raw.$t.$size.$n.txt" 2>&1; then
			t1=$(bench_now)
			timeout 10 tail --pid=$spid -f /dev/null
			kill -9 $spid 2>/dev/null
			awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
			return 0
		fi
		kill -9 $spid 2>/dev/null
		wait $spid 2>/dev/null
	done
	return 1
}

# bench_raw_one TEST SIZE [ARGS]: the rate of one perftest test, timed by the
# wall clock: perftest's own figures come from the TSC and stall with the
# host under TCG. Runs N and 3N iterations; the difference cancels
# connection set-up, so rate = 2N / (t(3N) - t(N)). If set-up time varied
# more than the transfers took, it falls back to 3N / t(3N), a lower bound
# (marked). N is about RAW_SECS seconds of work at rates seen under TCG.
bench_raw_one() {
	local t=$1 size=$2 args=${3:-} n ta tb
	n=$((RAW_SECS * (size >= 1048576 ? 20 : size >= 131072 ? 100 : 8000)))
	[[ $t == *_lat ]] && n=$((RAW_SECS * 8000))
	ta=$(bench_perftest "$t" "$size" "$n" "$args") || return 1
	tb=$(bench_perftest "$t" "$size" $((3 * n)) "$args") || return 1
	awk -v t="$t" -v s="$size" -v n="$n" -v a="$ta" -v b="$tb" 'BEGIN {
		if (b <= 0) exit
		lb = b <= a * 1.1
		rate = lb ? 3 * n / b : 2 * n / (b - a)
		printf "{\"t\":\"raw\",\"test\":\"%s\",\"bytes\":%d,\"n\":%d,\"t_n\":%.3f,\"t_3n\":%.3f,\"lower_bound\":%s,", t, s, n, a, b, lb ? "true" : "false"
		if (t ~ /_lat$/)
			printf "\"lat_us\":%.1f}\n", 1e6 / rate
		else
			printf "\"rate\":%.1f,\"bw_mib\":%.2f}\n", rate, rate * s / 1048576
	}'
}

bench_raw() {
	local t s r
	for t in write_bw read_bw; do
		for s in 4096 131072 1048576; do
			r=$(bench_raw_one $t $s)
			if [ -n "$r" ]; then bench_emit "$r"; else bench_na "raw" 0 "$t.$s" "perftest failed"; fi
		done
	done
	# One 4 KiB RDMA READ at a time; sleeping on completion events leaves
	# the CPU to soft-RoCE.
	r=$(bench_raw_one read_lat 4096 -e)
	if [ -n "$r" ]; then bench_emit "$r"; else bench_na "raw" 0 "read_lat.4096" "perftest failed"; fi
}

# Kernel memory figures in KiB: slab (reclaimable and not) and free memory.
bench_mem() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^Slab:/ { s = $2 } /^MemFree:/ { f = $2 } END { print s, f }' /proc/meminfo
}

# bench_login ROW N: N logins (SRP targets, iSER sessions, NVMe controllers)
# at once; time until every disk is there, slab and free memory deltas, then
# the time to log them all out.
bench_login() {
	local row=$1 n=$2 kind s0 f0 s1 f1 t0 t1 t2 err rc=0 disks
	kind=${row#*-}
	case $row in
	srp-*)
		bench_mod_load ib_srp "$kind" || { bench_na "$row" 0 "login$n" "$why"; return; }
		;;
	iser-*)
		bench_mod_load ib_iser "$kind" || { bench_na "$row" 0 "login$n" "$why"; return; }
		bench_iscsid_restart
		bench_iser_sessions "$n"
		;;
	nvmeof) ;;
	*) return ;;
	esac
	read -r s0 f0 < <(bench_mem)
	t0=$(bench_now)
	case $row in
	srp-*) bench_run_for $((60 + 10 * n)) bench_srp_add "$n"; disks=bench_srp_disks ;;
	iser-*) bench_run_for $((60 + 10 * n)) bench_iser_login; disks=bench_iser_disks ;;
	nvmeof) bench_run_for $((60 + 10 * n)) bench_nvme_connect "$n"; disks=bench_nvme_ctrls ;;
	esac
	rc=$?
	[ $rc -eq 0 ] && { lab_wait 120 bench_has "$n" $disks || rc=3; }
	t1=$(bench_now)
	err=$(bench_cmd_err)
	read -r s1 f1 < <(bench_mem)
	case $rc in
	0) ;;
	124) bench_na "$row" 0 "login$n" "login hung"; bench_kill_row "$row" "login hung"; return ;;
	3) bench_na "$row" 0 "login$n" "not all $n disks appeared" ;;
	*) bench_na "$row" 0 "login$n" "login failed: $err" ;;
	esac
	case $row in
	srp-*) bench_run_for 300 bench_srp_logout ;;
	iser-*) bench_run_for 300 bench_iser_logout ;;
	nvmeof) bench_run_for 300 bench_nvme_disconnect ;;
	esac
	[ $? -eq 124 ] && bench_kill_row "$row" "logout hung"
	t2=$(bench_now)
	case $row in
	iser-*) bench_iser_sessions 1 ;;
	esac
	[ $rc -eq 0 ] || return
	bench_emit "$(jq -nc --arg row "$row" --argjson n "$n" \
		--argjson t0 "$t0" --argjson t1 "$t1" --argjson t2 "$t2" \
		--argjson s0 "$s0" --argjson s1 "$s1" --argjson f0 "$f0" --argjson f1 "$f1" \
		'{t: "login", row: $row, n: $n, login_s: ($t1 - $t0), logout_s: ($t2 - $t1),
		  slab_kib: ($s1 - $s0), memfree_drop_kib: ($f0 - $f1)}')"
}

# bench_order REP: $ROWS forwards on odd repeats, backwards on even ones.
bench_order() {
	if [ $(($1 % 2)) -eq 1 ]; then
		echo $ROWS
	else
		echo $ROWS | tr ' ' '\n' | tac | tr '\n' ' '
	fi
}

# --- main ------------------------------------------------------------------

bench_emit "$(jq -nc --arg k "$(uname -r)" --arg v "$(cat /lab/version 2>/dev/null)" \
	--arg cpus "$(nproc)" --arg mem "$(awk '/MemTotal/ { print $2 }' /proc/meminfo)" \
	--argjson runtime "$RUNTIME" --argjson ramp "$RAMP" --argjson repeats "$REPEATS" \
	--arg rows "$ROWS" --arg jobs "$JOBS" --arg logins "$LOGINS" --argjson size $BENCH_SIZE_MIB \
	'{t: "info", kernel: $k, version: $v, cpus: ($cpus | tonumber), mem_kib: ($mem | tonumber),
	  runtime: $runtime, ramp: $ramp, repeats: $repeats, rows: $rows, jobs: $jobs,
	  logins: $logins, size_mib: $size}')"
lab_note "set-up: targets, NVMe-oF, tcm_loop"
bench_setup
if [ "$RAW_SECS" -gt 0 ]; then
	lab_note "raw RDMA ceiling (perftest over $RXE0)"
	bench_raw
fi
for ((rep = 1; rep <= REPEATS; rep++)); do
	for row in $(bench_order $rep); do
		lab_note "row $row, repeat $rep"
		bench_row "$row" "$rep"
	done
done
for n in $LOGINS; do
	for row in $(bench_order "$n"); do
		# Poll queues cost a login nothing worth its own rows.
		case $row in *-poll) continue ;; srp-*|iser-*|nvmeof) ;; *) continue ;; esac
		if r=$(bench_dead "$row"); then
			bench_na "$row" 0 "login$n" "$(echo "$r" | tr _ ' ') earlier"
			continue
		fi
		lab_note "logins: $row x $n"
		bench_login "$row" "$n"
	done
done
bench_mod_unload ib_srp
bench_mod_unload ib_iser
pass "benchmark ran to the end"
