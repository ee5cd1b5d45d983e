# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER error recovery: iscsid killed and restarted under I/O; the target
# portal group disabled and re-enabled under I/O (connection failure,
# reconnect, re-login); login/logout cycles without slab growth; unload.
#
# lab-drivers: ours intree
source /lab/lib-iser.sh

tpg=$CFS/iscsi/$ISER_IQN/tpgt_1

# Without multipathd: its fast_io_fail_tmo (5 s) would replace the
# session's replacement_timeout and fail raw-disk I/O during the outage.
lab_multipathd_down

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "login on $IP0" iser_login $IP0
check "2 disks on $IP0" iser_wait_disks $IP0 2
disk=$(iser_disks $IP0 | head -1)

fio_bg() {
	fio --name=rec --filename=/dev/$disk --direct=1 --ioengine=libaio \
		--rw=randrw --bs=4k --iodepth=8 --size=16m --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --time_based --runtime="$1" \
		--output-format=terse >/tmp/rec-fio.out 2>&1 &
	fpid=$!
}

fio_bg 30
sleep 5
pkill -x iscsid
sleep 5
lab_iscsid_up
iser_check_bg "fio verify while iscsid is killed and restarted" $fpid
check "session still logged in after iscsid restart" iser_session $IP0

fio_bg 60
sleep 5
echo 0 > $tpg/enable
sleep 5
echo 1 > $tpg/enable
iser_check_bg "fio verify across a target-side connection loss" $fpid
check "session recovered (LOGGED_IN)" lab_wait 60 sh -c \
	"grep -q LOGGED_IN /sys/class/iscsi_session/$(iser_session $IP0)/state"
check "connection failure reported to iscsid" sh -c \
	"dmesg | grep -q 'detected conn error'"
check "logout" iser_logout $IP0

before=$(iser_slab_objs)
for i in $(seq 1 20); do
	iser_login $IP0 >/dev/null 2>&1 || break
	iser_logout $IP0 >/dev/null 2>&1 || break
done
check "20 login/logout cycles" test "$i" = 20
after=$(iser_slab_objs)
check "slab usage flat over the cycles ($before -> $after)" \
	test $((after - before)) -lt 2000
check "ib_iser unloads after logout" iser_unload
