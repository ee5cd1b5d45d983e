# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# A LOCAL_INV that cannot be posted (issue 32). No device in the lab
# refuses one, so the debug kernel's fail_function makes srp_inv_data()
# (ALLOW_ERROR_INJECTION) fail once while reads run. The command must then
# complete only after its QP is in the error state, and that move must
# happen in process context: ib_modify_qp() sleeps on hardware (mlx5 runs
# a firmware command), while a response completes its command from the
# receive CQ's softirq. Soft-RoCE's modify never sleeps, so the debug
# kernel's might-sleep check cannot see the difference by itself; the red
# run put a might_sleep() in front of the old in-softirq ib_modify_qp().
# The channel goes down and logs in again; reads and writes go on.
#
# lab-drivers: ours
# lab-kernels: debug
# lab-boot: rogue
# lab-provokes: srp-path srp-reconnect (the channel whose invalidation failed is taken down and logs in again)
. /lab/lib-srp.sh

FF=/sys/kernel/debug/fail_function

lab_net_up
lab_srpt_up 2
check "ib_srp loads" lab_srp_load
check "fail_function is there (debug lab kernel)" test -d $FF
h=$(lab_srp_login 0) && pass "login" || fail "login"
srp_wait_disks "$h" 2
d=$(lab_host_disks "$h" | head -1)
udevadm settle -t 60
lab_log_mark

# One failure of srp_inv_data() with -ENOMEM, the next call on.
check "srp_inv_data() can be made to fail" sh -c "echo srp_inv_data > $FF/inject"
printf '%#x\n' -12 > $FF/srp_inv_data/retval
echo 100 > $FF/probability
echo 0 > $FF/interval
echo 0 > $FF/space
echo 0 > $FF/verbose
echo 1 > $FF/times
check "reads complete while the invalidation fails" \
	dd if=/dev/$d of=/dev/null bs=1M count=16 iflag=direct status=none
check "the failure was injected (times left: $(cat $FF/times))" test "$(cat $FF/times)" = 0
echo '!srp_inv_data' > $FF/inject
check "kernel log: the LOCAL_INV was not posted and the QP disabled" \
	lab_log_has "cannot invalidate the MRs of tag 0x[0-9a-f]+ \(-12\); disabling the QP"
check "the channel goes down" lab_log_has "channel [0-9]+ down|reconnect"
check "the rport is running again" lab_wait 60 sh -c \
	"grep -qx running /sys/class/srp_remote_ports/port-$h:1/state"
check "fio verify on $d after it" fio --name=after --filename=/dev/$d --direct=1 \
	--ioengine=libaio --rw=randwrite --bs=64k --iodepth=8 --size=16m \
	--verify=crc32c --verify_fatal=1 --do_verify=1
check "logout" srp_logout_all
check "ib_srp unloads" lab_unload ib_srp
