# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The demo (tests/demo): log in over SRP on two paths and over iSER, show
# lsscsi, the multipath maps and a short fio run, mount a file system.
#
# lab-drivers: demo
show() { echo; echo "### $*"; "$@" 2>&1 | sed 's/^/    /'; }
lab_srpt_up 2
lab_iser_target_up 2
lab_multipathd_up
lab_iscsid_up
lab_srp_load && lab_iser_load
echo "### ib_srp: $(modinfo -F filename ib_srp) $(modinfo -F version ib_srp)"
echo "### ib_iser: $(modinfo -F filename ib_iser) $(modinfo -F version ib_iser)"
h0=$(lab_srp_login 0) && h1=$(lab_srp_login 1) && pass "SRP login on two paths" ||
	fail "SRP login on two paths"
iscsiadm -m discovery -t st -p $IP0 -I iser >/dev/null &&
	iscsiadm -m node -T $ISER_IQN -p $IP0 -I iser --login >/dev/null &&
	pass "iSER login" || fail "iSER login"
lab_wait 60 sh -c "[ \$(multipath -ll 2>/dev/null | grep -c LIO-ORG) -ge 4 ]"
show lsscsi
show multipath -ll
map=$(multipath -ll | awk '/LIO-ORG/ {print $1; exit}')
if [ -n "$map" ]; then
	mkfs.ext4 -q -F /dev/mapper/$map && mkdir -p /mnt/demo && mount /dev/mapper/$map /mnt/demo &&
		dd if=/dev/urandom of=/mnt/demo/file bs=1M count=8 status=none && pass "ext4 on $map"
	show df -h /mnt/demo
	umount /mnt/demo
	echo; echo "### fio: 4k random read, QD16, 10 s on /dev/mapper/$map"
	fio --name=demo --filename=/dev/mapper/$map --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=16 --runtime=10 --time_based \
		--group_reporting 2>&1 | grep -E 'err=|read:|clat \(|50.00th|99.00th' | sed 's/^/    /'
fi
iscsiadm -m node -T $ISER_IQN -p $IP0 -I iser --logout >/dev/null
for h in $h0 $h1; do echo 1 > /sys/class/srp_remote_ports/port-$h:1/delete; done
lab_multipathd_down
