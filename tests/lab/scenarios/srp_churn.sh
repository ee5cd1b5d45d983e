# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP login churn, on the default topology (two paths: rxe0 and rxe1).
#
# 1. dm-multipath over both paths, fio verify on two maps at once, one raw
#    and one under ext4, while the paths are logged out (rport delete) and
#    in again in turn for CHURN_SECS (60; 300 in tests/run-all --long; a
#    cycle takes about 20 s under TCG,
#    most of it dm-multipath taking the path back): 0 I/O errors, 0
#    verify errors, the file system checks clean, every path back in its
#    map each time.
#
# Login/logout cycles without multipath are srp_cycles.
#
# Knobs (LAB_ENV): CHURN_SECS (60) of multipath churn.
#
# lab-drivers: ours
# lab-provokes: mpath (paths logged out under dm-multipath)
# lab-long: CHURN_SECS=300
. /lab/lib-srp.sh
. /lab/lib-path.sh

: "${CHURN_SECS:=60}"

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
fio --name=raw --filename=/dev/mapper/$raw $common --output-format=json --output=/tmp/churn-raw.out &
rpid=$!
fio --name=fs --directory=$mnt $common --output-format=json --output=/tmp/churn-fs.out &
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
# At least 2: the cycles alternate between path 0 and path 1, so each path
# went out and came back once (CHURN_SECS allows more; fewer, none of path
# 1's, if the first took the whole time).
check "$n path logout/login cycles, every path back in its maps" test $n -ge 2 -a $bad -eq 0
wait $rpid
rc=$?
check "fio verify on raw map $raw through the churn (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/churn-raw.out
# dm-multipath sends what a logged-out path held down the other one: no
# I/O waits longer than the lab's bound (LAB_IO_BOUND, lib.sh).
check "raw map $raw through the churn: longest I/O within the bound" \
	lab_fio_bound /tmp/churn-raw.out "fio on raw map $raw"
wait $fpid
rc=$?
check "fio verify on ext4 over map $fsmap through the churn (rc=$rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 /tmp/churn-fs.out
check "ext4 over map $fsmap through the churn: longest I/O within the bound" \
	lab_fio_bound /tmp/churn-fs.out "fio on ext4 over map $fsmap"
umount $mnt
rmdir $mnt
check "ext4 on $fsmap checks clean" fsck.ext4 -fn /dev/mapper/$fsmap
check "data checksummed on the raw map after the churn" lab_fio_verify /dev/mapper/$raw --size=8m
check "multipath maps flushed" lab_multipathd_down
check "logout" srp_logout_all
check "ib_srp unloads" lab_unload ib_srp
