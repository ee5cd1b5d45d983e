# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP data path limits: cmd_sg_entries=1 and 255 with ch_count=1 and 4,
# 8 MiB direct and buffered writes read back; the queue's max segment size
# and large I/O from unaligned buffers (ch_count=1); immediate data on and
# off, and use_imm_data flipped at run time taking effect at the next
# login (a host reset reconnects), as with the in-tree driver.
#
# lab-drivers: ours intree
# lab-provokes: srp-reconnect (use_imm_data flipped: a host reset logs in again)
. /lab/lib-srp.sh

lab_srpt_up 2
cpus=$(nproc)
for cfg in "1 1" "1 4" "255 1" "255 4"; do
	set -- $cfg
	sg=$1 chn=$2 tag="cmd_sg_entries=$1 ch_count=$2"
	check "[$tag] load" lab_srp_load cmd_sg_entries=$sg ch_count=$chn
	h=$(lab_srp_login 0) && pass "[$tag] login" || { fail "[$tag] login"; modprobe -r ib_srp; continue; }
	srp_wait_disks $h 1
	want=$chn
	[ $want -gt $cpus ] && want=$cpus
	check "[$tag] host cmd_sg_entries" srp_attr_fmt $h cmd_sg_entries $sg
	check "[$tag] host ch_count is $want" srp_attr_fmt $h ch_count $want
	d=$(lab_host_disks $h | head -1)
	check "[$tag] 8 MiB direct and buffered writes on $d" srp_big_writes $d
	check "[$tag] fio verify QD32 1m-8m blocks" lab_fio_verify $d --bsrange=1m-8m --iodepth=32 --size=64m
	check "[$tag] $d: queue/max_segment_size is the HCA's (not 64 KiB)" lab_max_seg_check $d
	[ $chn = 1 ] && check "[$tag] fio verify 512k-8m from buffers and offsets 512 past a page" \
		lab_fio_unaligned $d
	check "[$tag] logout" srp_logout $h
	check "[$tag] unload" lab_unload ib_srp
done

for imm in Y N; do
	check "[use_imm_data=$imm] load" lab_srp_load use_imm_data=$imm
	h=$(lab_srp_login 0) && pass "[use_imm_data=$imm] login" || fail "[use_imm_data=$imm] login"
	srp_wait_disks $h 1
	d=$(lab_host_disks $h | head -1)
	check "[use_imm_data=$imm] fio verify 512-8k writes QD16" lab_fio_verify $d --bsrange=512-8k --rw=randwrite --iodepth=16 --size=8m
	if [ "$DRIVER" = ours ]; then
		n=$(awk '$1 == "imm" {print $2}' /sys/class/scsi_host/host$h/stats)
		if [ $imm = Y ]; then
			check "[use_imm_data=Y] writes went as immediate data ($n)" test "${n:-0}" -gt 0
		else
			check "[use_imm_data=N] no immediate data ($n)" test "${n:-1}" -eq 0
		fi
		flip=N
		[ $imm = N ] && flip=Y
		tag="use_imm_data=$imm, then $flip"
		echo $flip > /sys/module/ib_srp/parameters/use_imm_data
		check "[$tag] host reset reconnects" sg_reset -H /dev/$d
		check "[$tag] rport running" lab_wait 30 grep -qx running /sys/class/srp_remote_ports/port-$h:1/state
		echo 1 > /sys/class/scsi_host/host$h/stats
		check "[$tag] fio verify 512-8k writes QD16" lab_fio_verify $d --bsrange=512-8k --rw=randwrite --iodepth=16 --size=8m
		n=$(awk '$1 == "imm" {print $2}' /sys/class/scsi_host/host$h/stats)
		if [ $flip = Y ]; then
			check "[$tag] the reconnected channels send immediate data ($n)" test "${n:-0}" -gt 0
		else
			check "[$tag] the reconnected channels send no immediate data ($n)" test "${n:-1}" -eq 0
		fi
	fi
	check "[use_imm_data=$imm] logout" srp_logout $h
	check "[use_imm_data=$imm] unload" lab_unload ib_srp
done
