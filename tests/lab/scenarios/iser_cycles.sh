# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER login/logout cycles (ISER_CYCLES, default 200) without slab or
# per-CPU memory growth, then unload. The node record is set to
# node.session.scan=manual for the cycles, so each costs the connection,
# login, session and logout and not a SCSI scan and udev run of two disks.
#
# Slab usage is read settled (lab_slab_settle: page cache, dentries and
# inodes dropped, RCU and kfree_rcu batches run, SLUB's per-CPU slabs
# flushed), cache by cache. Read the raw way (kmalloc active objects
# without settling) the caches seemed to grow by ~8 objects per cycle with
# either driver: per-CPU slabs count every object in them as active, and
# sysfs lookups leave dentries and inodes behind. Settled, the kmalloc
# caches (the initiator's, libiscsi's and scsi_transport_iscsi's
# allocations) must not grow by more than one object per two cycles: a
# leak of one object per cycle fails. A cache counts as leaking only when
# it grew by more than that in each half of the cycles (one more settled
# reading halfway): a cache that jumps once (kmalloc-16 +718 then +5 in
# one CI run) is not a leak. kmalloc-8 and kmalloc-16 get the allowance
# of lab_slab_steady for small caches: kmalloc-16 grew by 499 then 98 in
# another CI run, with no change to ib_iser since runs where it was flat.
# With slub_debug=U for a cache (LAB_KARGS), the allocation sites that
# gained objects are noted. The other caches are listed but not checked:
# they follow the processes each cycle runs (anon_vma_chain, filp, proc
# inodes; a few hundred objects up or down between two readings with
# nothing in between).
#
# Seen with ours (2 runs, 21:14 and 21:46): no kmalloc cache grew over
# 200 cycles (kmalloc total -330); 200 cycles take 270..340 s under TCG.
#
# Also notes the slab one session (no LUN scanned) takes, for the
# benchmark's memory figures (ours, rx_data_max 8192: ~3 MiB, of which
# 1.1 MiB are the 136 receive buffers and ~2.3 MiB rxe's share of the
# connection's 512 fast-registration MRs).
#
# lab-drivers: ours
source /lab/lib-iser.sh

cycles=${ISER_CYCLES:-200}
warmup=5
# objects one kmalloc cache may grow by: half an object per cycle
tolerance=$((cycles / 2))

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "discovery over iSER" iser_discover $IP0
node() { iscsiadm -m node -T "$ISER_IQN" -p "$IP0:$ISER_PORT" -I iser "$@"; }
check "node record without LUN scan" node -o update -n node.session.scan -v manual

cycle() {
	node --login >/dev/null && node --logout >/dev/null
}

pcpu() { awk '$1 == "Percpu:" { print $2 }' /proc/meminfo; }
# object totals of an lab_slab_diff listing: kmalloc caches, all caches
kmsum() { awk '$1 ~ /^kmalloc-/ { n += $2 } END { print n + 0 }' "$1"; }
allsum() { awk '{ n += $2 } END { print n + 0 }' "$1"; }

for ((i = 0; i < warmup; i++)); do
	cycle || break
done
check "$warmup warm-up cycles" test "$i" = "$warmup"

# one session's slab, settled, against none
lab_slab_settle
lab_slab_caches > /tmp/cycles-idle
node --login >/dev/null
lab_slab_settle
lab_slab_caches > /tmp/cycles-session
node --logout >/dev/null
lab_note "slab of one session (rx_data_max $(cat /sys/module/ib_iser/parameters/rx_data_max 2>/dev/null || echo -)):" \
	"$(lab_slab_diff /tmp/cycles-idle /tmp/cycles-session | awk '{ kb += $3 } END { printf "%d KiB", kb / 1024 }')"
lab_slab_diff /tmp/cycles-idle /tmp/cycles-session | sort -k3 -nr | head -8 |
	awk '{ printf "    %s %+d objects, %+d KiB\n", $1, $2, $3 / 1024 }'

# noise: two settled readings with nothing in between
lab_slab_settle
lab_slab_caches > /tmp/cycles-slab0
lab_slab_settle
lab_slab_caches > /tmp/cycles-slab0b
lab_slab_sites_save /tmp/cycles-sites0
lab_slab_diff /tmp/cycles-slab0 /tmp/cycles-slab0b > /tmp/cycles-noise
lab_note "settled slab noise: $(kmsum /tmp/cycles-noise) kmalloc objects, $(allsum /tmp/cycles-noise) in all caches"
pcpu0=$(pcpu)
start=$SECONDS
for ((i = 0; i < cycles; i++)); do
	cycle || break
	if [ $i = $((cycles / 2 - 1)) ]; then
		lab_slab_settle
		lab_slab_caches > /tmp/cycles-slabmid
	fi
done
took=$((SECONDS - start))
check "$cycles login/logout cycles" test "$i" = "$cycles"
lab_note "$i cycles in ${took}s"
lab_slab_settle
lab_slab_caches > /tmp/cycles-slab1
lab_slab_sites_save /tmp/cycles-sites1
pcpu1=$(pcpu)
lab_slab_diff /tmp/cycles-slab0b /tmp/cycles-slab1 > /tmp/cycles-diff
grow=$(kmsum /tmp/cycles-diff)
lab_note "settled, over $cycles cycles: kmalloc objects $grow, all caches $(allsum /tmp/cycles-diff); changes:"
sort -k2 -nr /tmp/cycles-diff | awk '$2 > 2 || $2 < -2 { printf "    %s %+d\n", $1, $2 }' | head -24
lab_slab_diff /tmp/cycles-slab0b /tmp/cycles-slabmid > /tmp/cycles-diff1
lab_slab_diff /tmp/cycles-slabmid /tmp/cycles-slab1 > /tmp/cycles-diff2
# A leak grows its cache steadily, in each half; noise (a few hundred
# objects between two idle readings) moves in one reading and stays or
# goes back in the other.
leaks=$(lab_slab_steady $((tolerance / 2)) '^kmalloc-' /tmp/cycles-diff1 /tmp/cycles-diff2 "$cycles")
check "kmalloc slab flat over $cycles cycles (total $grow objects; no cache grew by more than $((tolerance / 2)) (kmalloc-8/16: $(lab_slab_small_half "$cycles")) in each half${leaks:+: $leaks})" \
	test -z "$leaks"
lab_slab_sites_note /tmp/cycles-sites0 /tmp/cycles-sites1
check "per-CPU memory flat over $cycles cycles ($pcpu0 -> $pcpu1 kB)" \
	test $((pcpu1 - pcpu0)) -lt 64
node -o update -n node.session.scan -v auto
check "no iser session left" iser_no_session
check "ib_iser unloads after logout" iser_unload
