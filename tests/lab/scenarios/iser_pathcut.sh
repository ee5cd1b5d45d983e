# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# dm-multipath over two iSER portals while one path's RoCE packets are
# dropped and later let through again: fio verify sees no error, the cut
# path is noticed (NOP-Out pings run in the kernel) and comes back.
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
lab_multipathd_up
check "ib_iser loads" lab_iser_load
for ip in $IP0 $IP1; do
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o new >/dev/null 2>&1
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o update \
		-n node.conn[0].timeo.noop_out_interval -v 2 >/dev/null
	iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o update \
		-n node.conn[0].timeo.noop_out_timeout -v 4 >/dev/null
	check "login on $ip" iser_login $ip
done
check "multipath map with 2 paths" lab_wait 60 sh -c \
	"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
map=$(multipathd show maps raw format '%n' | head -1)
s1=$(iser_session $IP1)
fio --name=cut --filename=/dev/mapper/$map --direct=1 --ioengine=libaio \
	--rw=randrw --bs=4k --iodepth=16 --size=32m --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --time_based --runtime=70 \
	--output-format=terse >/tmp/cut-fio.out 2>&1 &
fpid=$!
sleep 5
iser_cut $IP1
sleep 10
if [ "$(iser_cut_dropped)" -gt 0 ]; then
	check "cut path noticed (session $s1 leaves LOGGED_IN)" lab_wait 40 sh -c \
		"! grep -q LOGGED_IN /sys/class/iscsi_session/$s1/state"
	sleep 10
else
	lab_note "nft dropped no RoCE packet: rxe loops this path back past netfilter, the cut is not effective here"
fi
iser_uncut
check "cut path back (session $s1 LOGGED_IN again)" lab_wait 60 \
	grep -q LOGGED_IN /sys/class/iscsi_session/$s1/state
iser_check_bg "fio verify over multipath through a path cut" $fpid
check "logout all" iser_logout_all
check "ib_iser unloads after logout" iser_unload
