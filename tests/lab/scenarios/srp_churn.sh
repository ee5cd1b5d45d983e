# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP login churn, on the default topology (two paths: rxe0 and rxe1).
#
# 1. dm-multipath over both paths, fio verify on two maps at once, one raw
#    and one under ext4, while the paths are logged out (rport delete) and
#    in again in turn for CHURN_SECS (a cycle takes about 20 s under TCG,
#    most of it dm-multipath taking the path back): 0 I/O errors, 0
#    verify errors, the file system checks clean, every path back in its
#    map each time.
# 2. CHURN_LOGINS login/logout cycles without multipathd: the slab caches
#    (read after dropping caches and shrinking every cache, so per-CPU
#    slabs do not blur the counts) and the module reference counts come
#    back to where they started; no cache grows by more than a fixed
#    tolerance overall and by more than half of it in each half of the
#    cycles (a leak of one object per cycle shows at the default count;
#    noise from the root file system and udev's workers moves once).
#    CHURN_LOGINS must be 2 or more.
#
# Knobs (LAB_ENV): CHURN_SECS (150) of multipath churn, CHURN_LOGINS (200)
# login/logout cycles, about 4 s each under TCG; CHURN_SLAB_TOLERANCE (128)
# objects per cache (kmalloc-96 moved by up to 150 objects over 40 cycles
# with no steady growth over 200).
#
# lab-drivers: ours
. /lab/lib-srp.sh
. /lab/lib-path.sh

: "${CHURN_SECS:=150}"
: "${CHURN_LOGINS:=200}"
: "${CHURN_SLAB_TOLERANCE:=128}"
# Caches of processes (udev's workers come and go) and of the root file
# system: no SRP, SCSI or RDMA object lives there.
CHURN_SLAB_SKIP='^(anon_vma|anon_vma_chain|vm_area_struct|mm_struct|files_cache|filp|cred_jar|task_struct|signal_cache|sighand_cache|pid|seq_file|names_cache|task_delay_info|fs_cache|dentry|inode_cache|proc_inode_cache|shmem_inode_cache|buffer_head|radix_tree_node|ext4_.*|jbd2_.*|kmalloc-cg-.*) '

# churn_active_paths: paths dm-multipath has active.
churn_active_paths() {
	multipathd show paths raw format '%d %t' | grep -c ' active$'
}

# churn_path_in P: log path P in, wait for its LUNs and for dm-multipath
# to have them active; prints the host number.
churn_path_in() {
	local h d
	h=$(lab_srp_login $1) || return 1
	srp_wait_disks $h 2 || return 1
	for d in $(lab_host_disks $h); do
		lab_wait 60 lab_mp_is $d active || return 1
	done
	echo $h
}

lab_srpt_up 2
check "multipathd up" lab_multipathd_up
check "ib_srp loads" lab_srp_load

# --- 1. multipath fio verify while paths are logged out and in ----------
h[0]=$(churn_path_in 0) && pass "path 0 in its maps" || fail "path 0 in its maps"
h[1]=$(churn_path_in 1) && pass "path 1 in its maps" || fail "path 1 in its maps"
d0=$(lab_host_disks ${h[0]} | sed -n 1p)
d1=$(lab_host_disks ${h[0]} | sed -n 2p)
lab_wait 20 lab_mp_map_of $d0
raw=$(lab_mp_map_of $d0)
fsmap=$(lab_mp_map_of $d1)
check "two maps ($raw, $fsmap), two active paths each" \
	test -n "$raw" -a -n "$fsmap" -a "$raw" != "$fsmap" -a "$(churn_active_paths)" -ge 4
mnt=$(mktemp -d)
check "ext4 on $fsmap" sh -c "mkfs.ext4 -q -F /dev/mapper/$fsmap && mount /dev/mapper/$fsmap $mnt"
common="--direct=1 --ioengine=libaio --rw=randrw --bs=4k --iodepth=16 --size=24m \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --time_based --runtime=$((CHURN_SECS + 10))"
fio --name=raw --filename=/dev/mapper/$raw $common --output=/tmp/churn-raw.out &
rpid=$!
fio --name=fs --directory=$mnt $common --output=/tmp/churn-fs.out &
fpid=$!
sleep 4
n=0 bad=0
end=$((SECONDS + CHURN_SECS))
while [ $SECONDS -lt $end ]; do
	p=$((n % 2))
	t=$SECONDS
	if ! srp_logout ${h[p]}; then
		bad=$((bad + 1))
		lab_note "cycle $n: logout of path $p (host ${h[p]}) failed"
		break
	fi
	sleep 2
	if ! h[p]=$(churn_path_in $p); then
		bad=$((bad + 1))
		lab_note "cycle $n: path $p did not come back into its maps"
		break
	fi
	lab_note "cycle $n: path $p out and back in its maps in $((SECONDS - t)) s"
	n=$((n + 1))
	sleep 2
done
lab_note "$n logout/login cycles, $bad failed; $(churn_active_paths) paths active"
check "$n path logout/login cycles, every path back in its maps" test $n -ge 2 -a $bad -eq 0
wait $rpid
rc=$?
check "fio verify on raw map $raw through the churn (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/churn-raw.out
wait $fpid
rc=$?
check "fio verify on ext4 over map $fsmap through the churn (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/churn-fs.out
umount $mnt
rmdir $mnt
check "ext4 on $fsmap checks clean" fsck.ext4 -fn /dev/mapper/$fsmap
check "data checksummed on the raw map after the churn" lab_fio_verify /dev/mapper/$raw --size=8m
check "multipath maps flushed" lab_multipathd_down
check "logout" srp_logout_all

# --- 2. login/logout cycles: slabs and module references ----------------
# churn_slabs: "cache active-objects" lines, after dropping the page cache,
# dentries and inodes and shrinking every slab cache (which also flushes
# the per-CPU slabs whose free objects /proc/slabinfo counts as active).
churn_slabs() {
	local f
	udevadm settle
	sync
	echo 3 > /proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 > "$f"
	done 2>/dev/null
	awk 'NR > 2 { print $1, $2 }' /proc/slabinfo | grep -Ev "$CHURN_SLAB_SKIP" | sort
}

churn_refcnts() {
	local m
	for m in ib_srp rdi_core scsi_transport_srp ib_core rdma_cm ib_cm iw_cm rdma_rxe; do
		[ -r /sys/module/$m/refcnt ] && echo "$m $(cat /sys/module/$m/refcnt)"
	done
}

# churn_cycle: one login on path 0, its LUNs scanned, logout.
churn_cycle() {
	local h
	h=$(lab_srp_login 0) || return 1
	srp_wait_disks $h 2 || return 1
	srp_logout $h
}

check "warm-up login/logout" churn_cycle
slab0=$(churn_slabs)
ref0=$(churn_refcnts)
t0=$SECONDS
n=0
while [ $n -lt $CHURN_LOGINS ]; do
	churn_cycle || { lab_note "cycle $n failed"; break; }
	n=$((n + 1))
	# Halfway counts tell a steady leak (grows in both halves) from noise.
	[ $n -eq $((CHURN_LOGINS / 2)) ] && slabh=$(churn_slabs)
done
secs=$((SECONDS - t0))
lab_note "$n login/logout cycles took $secs s"
check "$CHURN_LOGINS login/logout cycles ($secs s)" test $n -eq $CHURN_LOGINS
check "no SRP host left" test -z "$(lab_srp_hosts)"
slab1=$(churn_slabs)
ref1=$(churn_refcnts)
# A leak grows in both halves; what the root file system, udev's workers
# and the page cache leave behind moves once and stays (or shrinks again).
grown=$(join <(echo "$slab0") <(echo "$slabh") | join - <(echo "$slab1") |
	awk -v t=$CHURN_SLAB_TOLERANCE '$4 - $2 > t && $3 - $2 > t / 2 &&
		$4 - $3 > t / 2 { print $1, $2, "-> (halfway)", $3, "->", $4 }')
lab_note "largest slab changes over the cycles:"
join <(echo "$slab0") <(echo "$slabh") | join - <(echo "$slab1") |
	awk '{ print $4 - $2, $1, $2, "-> (halfway)", $3, "->", $4 }' |
	sort -n | tail -8 | sed 's/^/    /'
check "no slab cache grew by more than $CHURN_SLAB_TOLERANCE objects, in both halves" \
	sh -c "[ -z '$grown' ] || { echo '$grown'; exit 1; }"
check "module reference counts back where they started" \
	sh -c "[ '$ref0' = '$ref1' ] || { echo 'before: $ref0'; echo 'after: $ref1'; exit 1; }"
check "ib_srp unloads" lab_wait 30 modprobe -r ib_srp
