# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Cuttable paths (sourced after /lab/lib.sh). An opt-in variant of the lab
# topology: the default one (lab_net_up) loops each path back inside one rxe
# device, so nothing a netfilter rule or qdisc does reaches it. Here each
# path is a veth pair with an rxe device on each end, the initiator on one
# end and the target on the other, so its RoCE packets really cross the
# veth and can be dropped there.
#
# Soft-RoCE in Debian's 6.1 only works in the initial network namespace
# (its UDP socket and its routing use init_net), so both ends stay there.
# Two local addresses would normally reach each other through lo (where
# rxe sees nothing); a policy rule consulted before the local table sends
# locally generated packets for the peer out of the veth, and accept_local
# lets the other end take them in. See docs/lab.md.
#
#   lab_path_up             both cuttable paths (and the default topology)
#   lab_path_siw_up         path 2, soft-iWARP (siw) on a veth pair of its own
#   lab_path_siw_v6_up      IPv6 on path 2 as well
#   lab_path_srpt_up [N]    ib_srpt target ports on the target ends, N LUNs
#   lab_path_srp_login P [EXTRA]   login over path P; prints the host number
#   lab_path_cut P [tx] / lab_path_restore P   drop / pass path P's RoCE
#                           packets (where they arrive; tx: where they leave)
#   lab_path_lossy P        lose 1% of what path P's initiator end sends
#                           (retransmissions)
#   lab_path_any_rx_cpu P   let path P deliver out of order (retransmissions)
#   lab_path_in_order P     steer path P's receive to one CPU again
#   lab_path_tx_holds       a drop where the packets leave holds them in the
#                           sending rxe device (6.1); else tx cuts are refused
#   lab_path_dropped        RoCE packets dropped by cuts so far

# Paths 0 and 1 are soft-RoCE (lab_path_up); path 2, soft-iWARP, comes on
# request (lab_path_siw_up).
PATH_IPI=(203.0.113.1 203.0.113.17 203.0.113.33)	# initiator ends
PATH_IPT=(203.0.113.2 203.0.113.18 203.0.113.34)	# target ends
PATH_DEVI=(pathi0 pathi1 pathi2)
PATH_DEVT=(patht0 patht1 patht2)
PATH_RXEI=(rxepi0 rxepi1)
PATH_RXET=(rxept0 rxept1)
PATH_SIWI=([2]=siwpi2)
PATH_SIWT=([2]=siwpt2)
PATH_TABLE=100
# Soft-RoCE takes an RC transport retry count of 7 as "retry for ever" (the
# InfiniBand meaning of 7 for the RNR retry count only), and 7 is ib_srp's
# default tl_retry_count: a QP whose packets are dropped would never fail
# and only the SCSI command timeout would notice the cut. SRP logins over
# cuttable paths ask for 3 transport retries (about 4 x 2 s on rxe).
SRP_PATH_OPTS=tl_retry_count=3

# _lab_path_gid_hex IP: the IPv4-mapped GID's tail as sysfs prints it.
_lab_path_gid_hex() {
	local a b c d
	IFS=. read -r a b c d <<< "$1"
	printf '%02x%02x:%02x%02x\n' "$a" "$b" "$c" "$d"
}

_lab_path_dev_sysctl() {
	sysctl -qw "net.ipv4.conf.$1.accept_local=1" "net.ipv4.conf.$1.rp_filter=0"
	sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1"
}

# _lab_path_one_rx_cpu DEV: steer everything DEV receives to CPU 0.
#
# A veth hands each packet to the backlog of the CPU that sent it, and
# rxe sends one QP's packets from whichever CPU runs its requester at the
# time; the two CPUs' backlogs then deliver them out of order. The
# receiving QP NAKs the gap and the sender retransmits. Soft-RoCE in 6.1
# replays every completed local work request from the oldest unacknowledged
# one on, so a fast registration queued behind an unacknowledged SEND is
# executed a second time, fails ("rxe_reg_fast_mr: mr->lkey ... not free")
# and breaks the QP: an uncut path failed over together with the cut one.
# With RPS set to one CPU every packet goes through CPU 0's backlog in the
# order it was sent. See docs/lab.md.
_lab_path_one_rx_cpu() {
	local q
	for q in /sys/class/net/$1/queues/rx-*; do
		echo 1 > $q/rps_cpus || return 1
	done
}

# lab_path_any_rx_cpu PATH: undo _lab_path_one_rx_cpu on both ends of
# PATH: each packet is received on the CPU that sent it, as on a veth pair
# set up by hand, so the path delivers some packets out of order and the
# receiving QP NAKs them: the retransmissions every RC initiator must
# survive (a lossy fabric causes the same), here without a single loss.
lab_path_any_rx_cpu() {
	local q
	for q in /sys/class/net/${PATH_DEVI[$1]}/queues/rx-* \
		 /sys/class/net/${PATH_DEVT[$1]}/queues/rx-*; do
		echo 0 > $q/rps_cpus || return 1
	done
}

# lab_path_in_order PATH: steer PATH's receive to one CPU again.
lab_path_in_order() {
	_lab_path_one_rx_cpu ${PATH_DEVI[$1]} &&
		_lab_path_one_rx_cpu ${PATH_DEVT[$1]}
}

# _lab_path_veth N: path N's veth pair, addresses, rules and routes (no
# RDMA device yet).
_lab_path_veth() {
	local n=$1 di=${PATH_DEVI[$1]} dt=${PATH_DEVT[$1]}
	ip link add $di type veth peer name $dt || return 1
	ip rule add pref 5 iif $di lookup local
	ip rule add pref 5 iif $dt lookup local
	_lab_path_dev_sysctl $di
	_lab_path_dev_sysctl $dt
	ip addr add ${PATH_IPI[n]}/32 dev $di
	ip addr add ${PATH_IPT[n]}/32 dev $dt
	# One receive CPU per veth keeps each path's packets in order; why it
	# matters: _lab_path_one_rx_cpu.
	_lab_path_one_rx_cpu $di || return 1
	_lab_path_one_rx_cpu $dt || return 1
	ip link set $di up
	ip link set $dt up
	ip route replace ${PATH_IPT[n]}/32 dev $di src ${PATH_IPI[n]} table $PATH_TABLE
	ip route replace ${PATH_IPI[n]}/32 dev $dt src ${PATH_IPT[n]} table $PATH_TABLE
	ip neigh replace ${PATH_IPT[n]} dev $di nud permanent \
		lladdr "$(cat /sys/class/net/$dt/address)"
	ip neigh replace ${PATH_IPI[n]} dev $dt nud permanent \
		lladdr "$(cat /sys/class/net/$di/address)"
}

lab_path_up() {
	local n di dt
	lab_net_up
	[ -e /sys/class/infiniband/${PATH_RXET[1]} ] && return 0
	sysctl -qw net.ipv4.conf.all.accept_local=1 net.ipv4.conf.all.rp_filter=0
	# What arrives on a path's veth is for local delivery (rule 5); any
	# other lookup of a path's far end, output routes (iif lo) and RDMA/CM's
	# check of an incoming request (no iif) alike, takes the path's veth
	# (rule 10); the local table comes after both.
	if ! ip rule show pref 100 | grep -q 'lookup local'; then
		ip rule add pref 100 lookup local
		ip rule del pref 0 lookup local
	fi
	ip rule show pref 10 | grep -q "lookup $PATH_TABLE" ||
		ip rule add pref 10 lookup $PATH_TABLE
	modprobe veth
	for n in 0 1; do
		_lab_path_veth $n || return 1
		rdma link add ${PATH_RXEI[n]} type rxe netdev ${PATH_DEVI[n]} || return 1
		rdma link add ${PATH_RXET[n]} type rxe netdev ${PATH_DEVT[n]} || return 1
	done
	for n in 0 1; do
		lab_wait 20 sh -c "grep -q '$(_lab_path_gid_hex ${PATH_IPI[n]})\$' /sys/class/infiniband/${PATH_RXEI[n]}/ports/1/gids/*" || return 1
		lab_wait 20 sh -c "grep -q '$(_lab_path_gid_hex ${PATH_IPT[n]})\$' /sys/class/infiniband/${PATH_RXET[n]}/ports/1/gids/*" || return 1
	done
	# Cuts drop where the packets arrive (set cut): a drop in the output
	# hook (set cuttx, lab_path_cut P tx) fails rxe's ip_local_out(), and
	# rxe then retries that send until the netdev takes it instead of
	# losing the packet (see docs/lab.md); only a scenario that wants
	# exactly that asks for it. Soft-iWARP's packets are TCP (path 2):
	# nothing else uses TCP on a path's veth.
	nft -f - <<'NFT' || return 1
table inet labpath {
	set cut { type ifname; flags timeout; }
	set cuttx { type ifname; flags timeout; }
	set lossy { type ifname; }
	chain in {
		type filter hook prerouting priority 0; policy accept;
		iifname @cut udp dport 4791 counter drop
		iifname @lossy udp dport 4791 @th,64,8 != 13-16 numgen random mod 100 < 1 counter drop
		iifname @cut meta l4proto tcp counter drop
	}
	chain out {
		type filter hook output priority 0; policy accept;
		oifname @cuttx udp dport 4791 counter drop
	}
}
NFT
}

# lab_path_siw_up: the cuttable paths (lab_path_up) plus path 2, a veth
# pair of its own with a soft-iWARP (siw) device on each end: initiator
# siwpi2 on pathi2 (203.0.113.33), target siwpt2 on patht2 (.34), routed
# like the others, so its TCP connections cross the veth and
# lab_path_cut 2 drops them where they arrive. Its own veth pair, not
# paths 0 and 1's: RDMA/CM picks the device of a connection by the netdev
# its route leaves on, and a netdev with an rxe and a siw device on it
# would leave the choice to the order of the device list. Neither lab
# kernel ships siw: the boot carries it when the scenario's header says
# "# lab-needs: siw" (tests/lab/build-siw).
lab_path_siw_up() {
	lab_path_up || return 1
	[ -e /sys/class/infiniband/${PATH_SIWT[2]} ] && return 0
	modprobe siw || return 1
	_lab_path_veth 2 || return 1
	rdma link add ${PATH_SIWI[2]} type siw netdev ${PATH_DEVI[2]} || return 1
	rdma link add ${PATH_SIWT[2]} type siw netdev ${PATH_DEVT[2]} || return 1
	lab_wait 20 sh -c "grep -q ACTIVE /sys/class/infiniband/${PATH_SIWI[2]}/ports/1/state &&
		grep -q ACTIVE /sys/class/infiniband/${PATH_SIWT[2]}/ports/1/state"
}

# Path 2's IPv6 addresses (lab_path_siw_v6_up): initiator end, a second
# one on the initiator end (for src=), target end.
PATH2_IP6I=2001:db8:0:33::1
PATH2_IP6I2=2001:db8:0:33::3
PATH2_IP6T=2001:db8:0:33::2

# lab_path_siw_v6_up: IPv6 on path 2 (lab_path_siw_up), routed like its
# IPv4: global addresses without DAD, arrivals on the path's veths are
# local (rule 5), every other lookup of a far end takes the veth (rule
# 10, table $PATH_TABLE), the local table moved after both, permanent
# neighbours. The other paths keep IPv6 off.
lab_path_siw_v6_up() {
	local di=${PATH_DEVI[2]} dt=${PATH_DEVT[2]} a
	lab_path_siw_up || return 1
	ip -6 rule show pref 10 | grep -q "lookup $PATH_TABLE" && return 0
	sysctl -qw "net.ipv6.conf.$di.disable_ipv6=0" "net.ipv6.conf.$dt.disable_ipv6=0"
	ip -6 addr add $PATH2_IP6I/128 dev $di nodad || return 1
	ip -6 addr add $PATH2_IP6I2/128 dev $di nodad || return 1
	ip -6 addr add $PATH2_IP6T/128 dev $dt nodad || return 1
	ip -6 rule add pref 5 iif $di lookup local
	ip -6 rule add pref 5 iif $dt lookup local
	ip -6 rule add pref 100 lookup local
	ip -6 rule del pref 0 lookup local
	ip -6 rule add pref 10 lookup $PATH_TABLE
	ip -6 route replace $PATH2_IP6T/128 dev $di src $PATH2_IP6I table $PATH_TABLE
	for a in $PATH2_IP6I $PATH2_IP6I2; do
		ip -6 route replace $a/128 dev $dt src $PATH2_IP6T table $PATH_TABLE
		ip -6 neigh replace $a dev $dt nud permanent \
			lladdr "$(cat /sys/class/net/$di/address)"
	done
	ip -6 neigh replace $PATH2_IP6T dev $di nud permanent \
		lladdr "$(cat /sys/class/net/$dt/address)"
}

# lab_path_srpt_up [NLUNS]: the LIO SRP target (lab_srpt_up) plus target
# ports on both paths' target ends, same LUNs. RDMA/CM logins are known by
# the target-side address, so each port's ACL is its own address.
lab_path_srpt_up() {
	local n=${1:-2} p port tpg i ip
	lab_path_up || return 1
	lab_srpt_up $n
	for p in 0 1; do
		port=$(_lab_rxe_guid_name ${PATH_RXET[p]})
		tpg=$CFS/srpt/$port/$port
		[ -e $tpg/enable ] && [ "$(cat $tpg/enable)" = 1 ] && continue
		mkdir -p $tpg || return 1
		for ((i = 0; i < n; i++)); do
			mkdir -p $tpg/lun/lun_$i
			ln -s $CFS/core/rd_mcp_0/srp$i $tpg/lun/lun_$i/ 2>/dev/null
		done
		ip=${PATH_IPT[p]}
		mkdir -p $tpg/acls/$ip
		for ((i = 0; i < n; i++)); do
			mkdir -p $tpg/acls/$ip/lun_$i
			ln -s $tpg/lun/lun_$i $tpg/acls/$ip/lun_$i/ 2>/dev/null
		done
		echo 1 > $tpg/enable
	done
}

# lab_path_srp_login PATH [EXTRA]: RDMA/CM login over cuttable path 0 or 1
# from its initiator-end rxe device; prints the new SCSI host number.
lab_path_srp_login() {
	local p=$1 extra=$2 before h g
	g=$(srpt_guid)
	before=$(lab_srp_hosts)
	echo "id_ext=$g,ioc_guid=$g,dest=${PATH_IPT[p]}:$SRP_PORT${extra:+,$extra}" \
		> /sys/class/infiniband_srp/srp-${PATH_RXEI[p]}-1/add_target || return 1
	for h in $(lab_srp_hosts); do
		echo "$before" | grep -qx "$h" || { echo "$h"; return 0; }
	done
	return 1
}

# lab_path_tx_holds: a packet dropped where it leaves (the nft output hook
# refuses it, so rxe's ip_local_out() fails) waits in the sending rxe
# device until the netdev takes it: 6.1's rxe_send() turns the refusal into
# -EAGAIN and the requester tries again. Not on 6.12: rxe_xmit_packet()
# returns ip_local_out()'s error as is, and rxe_requester() completes the
# work request with IB_WC_LOC_QP_OP_ERR and moves the QP to the error state
# (read in 6.12.117+deb13's rdma_rxe.ko). The device's GSI QP, which sends
# the CM's MADs, goes the same way and stays there: after one such drop no
# RDMA/CM connection was made over the device again, with either iSER
# initiator (docs/lab.md). A fabric flap does not do that to an HCA, so
# there the lab cuts where the packets arrive only. The lab knows these
# two kernels; for another, read its rxe first.
lab_path_tx_holds() {
	[[ $(uname -r) == 6.1.* ]]
}

# lab_rxe_fails_cut_qps: the QPs of a busy path cut where its packets
# arrive go to the error state within seconds, with no error completion
# (the initiator sees flushed work requests only), where 6.1's soft-RoCE
# keeps retrying for ever at retry count 7. Seen on 6.12.117+deb13 with
# ours and with the in-tree ib_srp (trixie boots 20261203-230455 and
# 20261203-230828: default tl_retry_count 7, no keep-alive in-tree, its
# "failed RECV status WR flushed (5)" within 2 s of the cut) and the
# in-tree ib_iser (docs/lab.md, "Path cuts"). Not our drivers' doing; the
# keep-alive cannot be first there under I/O. The lab knows these two
# kernels; for another, read its rxe first.
lab_rxe_fails_cut_qps() {
	[[ $(uname -r) != 6.1.* ]]
}

# lab_path_cut PATH [SIDE [SECS]]: drop every RoCE packet of the path, both
# directions, where it arrives (SIDE rx, the default: the packet is lost)
# or where it leaves (tx: the sending rxe device tries it again until it
# is taken, so QP sends and CM MADs alike wait in the device while the cut
# lasts). A tx cut where the device does not hold what it cannot send
# (lab_path_tx_holds) is refused: it would break the path for good. With
# SECS the kernel ends the cut SECS s after it began (an nftables element
# timeout, checked at each packet): a tx cut makes soft-RoCE retry refused
# packets in a busy loop, which under TCG slows every user-space step, so
# a drop ended by a command after a sleep lasts as much longer than asked
# as the shell and nft are late, and srp_txcut's "back before dev_loss_tmo"
# has only seconds to spare. LAB_CUT_T0 is the $EPOCHREALTIME taken just
# before the cut; lab_path_cut_wait (needs lib-time.sh) sleeps until it
# ends.
lab_path_cut() {
	local set=cut tmo=
	if [ "${2:-rx}" = tx ]; then
		if ! lab_path_tx_holds; then
			echo "lab_path_cut: no tx cut on $(uname -r): rxe fails the QPs (lab_path_tx_holds)" >&2
			return 1
		fi
		set=cuttx
	fi
	[ -n "${3:-}" ] && tmo=" timeout ${3}s"
	LAB_CUT_SECS=${3:-}
	echo "<6>lab: path $1 cut (${2:-rx}${3:+, $3 s})" > /dev/kmsg
	LAB_CUT_T0=$EPOCHREALTIME
	nft add element inet labpath $set "{ ${PATH_DEVI[$1]}$tmo, ${PATH_DEVT[$1]}$tmo }" || return 1
	# When the drop was in place at the latest, by the kernel's clock: nft
	# can take seconds under TCG (boot 20261206-213033: a channel still
	# received 3.5 s after the message above).
	echo "<6>lab: path $1 cut in place" > /dev/kmsg
}

# lab_path_cut_wait: sleep until the timed cut of the last lab_path_cut
# has ended; LAB_T0 is then the cut's end (by the clock, however late the
# shell wakes), for lab_watch.
lab_path_cut_wait() {
	local rest
	LAB_T0=$(awk -v a="$LAB_CUT_T0" -v s="$LAB_CUT_SECS" 'BEGIN { printf "%.6f", a + s }')
	rest=$(lab_sub "$LAB_T0" "$EPOCHREALTIME")
	awk -v r="$rest" 'BEGIN { exit !(r > 0) }' && sleep "$rest"
	echo "<6>lab: timed cut over (woke $(lab_sub "$EPOCHREALTIME" "$LAB_T0") s after its end)" > /dev/kmsg
}

# lab_path_lossy PATH: lose one in 100 of the RoCE packets the path's
# initiator end sends, at random, where they arrive at the target end, so
# that the initiator's QPs retransmit now and then. Not RDMA READ responses
# (BTH opcodes 13 to 16): soft-RoCE breaks the QP that reads when it
# misses one (6.12: WARNING at rxe_comp.c:827, rxe_completer() in the
# error state with a successful work request, then "ib_srpt RDMA_READ
# ... failed with status 5"; boot 20261207-132346, ib_srpt's QP).
lab_path_lossy() {
	echo "<6>lab: path $1 loses 1% of what its initiator end sends" > /dev/kmsg
	nft add element inet labpath lossy "{ ${PATH_DEVT[$1]} }"
}

# lab_path_restore PATH: let the path's RoCE packets through again.
lab_path_restore() {
	local set
	for set in cut cuttx lossy; do
		nft delete element inet labpath $set "{ ${PATH_DEVI[$1]}, ${PATH_DEVT[$1]} }" 2>/dev/null
	done
	return 0
}

# lab_path_dropped: RoCE packets dropped by path cuts and losses since
# lab_path_up, on either side (on the sending side, every new try of a
# packet counts).
lab_path_dropped() {
	nft list table inet labpath |
		awk '/counter packets/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) }
		     END { print n + 0 }'
}

# lab_path_sent PATH: RoCE packets sent by the path's initiator-end rxe.
lab_path_sent() {
	cat /sys/class/infiniband/${PATH_RXEI[$1]}/ports/1/hw_counters/sent_pkts
}

# lab_mp_map_of DISK: name of the multipath map holding DISK (sdX).
lab_mp_map_of() {
	local h
	for h in /sys/block/$1/holders/dm-*; do
		[ -e "$h/dm/name" ] && { cat "$h/dm/name"; return 0; }
	done
	return 1
}

# lab_mp_two_paths DISK: checks that multipathd runs and has two active
# paths for each of the two LUNs; sets MAP (the map holding DISK) and MM
# (DISK's major:minor).
lab_mp_two_paths() {
	check "multipathd up" lab_multipathd_up
	check "multipath map with 2 paths per LUN" lab_wait 60 sh -c \
		"[ \$(multipathd show paths raw format '%d %t' | grep -c active) -ge 4 ]"
	lab_wait 20 lab_mp_map_of "$1"
	MAP=$(lab_mp_map_of "$1")
	MM=$(cat /sys/block/$1/dev)
	# The map's node comes from udev, which can lag under load
	# (multipathd: "timeout waiting on creation uevent"): a fio started
	# before it created a regular file there, and O_DIRECT on it failed
	# (boot 20261206-223112).
	lab_wait 30 test -b /dev/mapper/$MAP
}

# lab_mp_dm_state DISK: dm-multipath's state of path DISK (active/failed).
lab_mp_dm_state() {
	multipathd show paths raw format '%d %t' | awk -v d="$1" '$1 == d {print $2}'
}

# lab_disk_done DISK: requests DISK has completed (reads + writes).
lab_disk_done() {
	_lab_disk_read $1
	echo $LAB_DISK_DONE
}

# _lab_disk_read DISK: sample DISK without forking: LAB_DISK_DONE (requests
# completed), LAB_DISK_INFLIGHT (requests in flight), LAB_DISK_SCSI (SCSI
# commands done/errors/timeouts, retries count, for messages), of those
# LAB_DISK_OK (ended well) and LAB_DISK_ERRS (ended in error), and
# LAB_DISK_USEC (when, in microseconds).
_lab_disk_read() {
	local d=/sys/block/$1 c e t
	local -a st
	LAB_DISK_USEC=${EPOCHREALTIME/./}
	read -r -a st < $d/stat
	LAB_DISK_DONE=$((st[0] + st[4]))
	read -r -a st < $d/inflight
	LAB_DISK_INFLIGHT=$((st[0] + st[1]))
	read -r c < $d/device/iodone_cnt
	read -r e < $d/device/ioerr_cnt
	read -r t < $d/device/iotmo_cnt
	LAB_DISK_SCSI=$((c))/$((e))/$((t))
	LAB_DISK_OK=$((c - e)) LAB_DISK_ERRS=$((e))
}

# lab_disk_busy DISK: DISK has requests in flight.
lab_disk_busy() {
	_lab_disk_read $1
	[ $LAB_DISK_INFLIGHT -gt 0 ]
}

# lab_disk_stalls DISK PATH SECS: for SECS seconds after PATH was cut, DISK
# (a disk on PATH) carries I/O - requests in flight when they began or at
# their end, or commands that end in error between - and no more of its
# SCSI commands end well than it had requests in flight at their start.
#
# Either end of the window may have nothing in flight: an initiator that
# notices the cut within SECS hands its requests back to the SCSI and block
# layers, which hold them without completing them (ours on trixie's 6.12
# fails the connection on the flushed completions about a second after a
# cut: the disk's inflight and host_busy are 0 by then, the map holds the
# requests), and both may when the cut falls between two of fio's jobs and
# the next job's first requests fail back before the end (ours on 6.12,
# boot 20261204-070554: in flight 0 then 0, errors +2). Commands that end
# in error show the path in use but do not end well: on 6.12 soft-RoCE
# fails a cut path's QPs within about 1.5 s (lab_rxe_fails_cut_qps), and
# ib_srp fails their commands back, which dm-multipath sees as errors and
# sends down the other path (trixie boot 20261203-232627: block
# completions 1473 -> 1483 at 1.25 s, SCSI done +5, errors +5).
#
# Commands that end well can only be some of those already in flight: a
# command whose response arrived just before the cut completes, with the
# target's good status, when the LOCAL_INV of its MRs does (ours:
# srp_complete_cmd(), and iser/rx.c for a target that does not invalidate
# remotely), and that waits in the send queue behind the command's SEND,
# whose acknowledgment the cut dropped, until the QP is flushed: at
# ib_srp's keep-alive expiry 5 s after the cut on 6.1 (boot
# 20261204-064725, traced: READs sent 10 ms before the cut completed GOOD
# 5.0 s later, right after "keep-alive probe unanswered"), when soft-RoCE
# fails the QP on 6.12 (2 or 3 in 3 of 20 cuts, boot 20261204-070554).
# Counted as twelve 0.25 s sleeps with a fork per sample, the window
# stretched to 5 s under TCG and met the keep-alive expiry in 5 of 60 cuts
# (two 6.1 boots); it is SECS by the clock now, sampled without forking.
# What PATH's initiator-end rxe device received in the window is printed,
# not judged: once in 80 cuts it counted 96 packets with nothing
# completing (6.1, boot 20261204-072100), not explained yet.
lab_disk_stalls() {
	local disk=$1 rx=/sys/class/infiniband/${PATH_RXEI[$2]}/ports/1/hw_counters/rcvd_pkts
	local a b f0 f1 s0 s1 t0 t1 r0 r1 ok0 err0 end left good seen=
	read -r r0 < $rx
	_lab_disk_read $disk
	a=$LAB_DISK_DONE f0=$LAB_DISK_INFLIGHT s0=$LAB_DISK_SCSI t0=$LAB_DISK_USEC
	ok0=$LAB_DISK_OK err0=$LAB_DISK_ERRS
	end=$((t0 + $3 * 1000000))
	while left=$((end - LAB_DISK_USEC)); [ $left -gt 0 ]; do
		[ $left -gt 250000 ] && left=250000
		sleep "$((left / 1000000)).$(printf %06d $((left % 1000000)))"
		_lab_disk_read $disk
		seen+=" $LAB_DISK_DONE"
	done
	b=$LAB_DISK_DONE f1=$LAB_DISK_INFLIGHT s1=$LAB_DISK_SCSI t1=$LAB_DISK_USEC
	read -r r1 < $rx
	good=$((LAB_DISK_OK - ok0))
	echo "$disk: in $(((t1 - t0) / 1000)) ms completed $a -> $b (every 0.25 s:$seen)," \
		"in flight: $f0 then $f1; SCSI done/errors/timeouts: $s0 -> $s1 ($good ended well);" \
		"${PATH_RXEI[$2]} received $r0 -> $r1 packets"
	[ $good -le $f0 ] && [ $((f0 + f1 + LAB_DISK_ERRS - err0)) -gt 0 ]
}

# lab_mp_is DISK STATE: dm-multipath has path DISK in STATE.
lab_mp_is() {
	[ "$(lab_mp_dm_state "$1")" = "$2" ]
}

# lab_disk_moves DISK SECS: DISK completes requests within SECS seconds
# (polled: passes as soon as one completes).
lab_disk_moves() {
	local a
	a=$(lab_disk_done $1)
	lab_wait $2 _lab_disk_past $1 $a && return 0
	echo "$1: completed nothing in $2 s ($a -> $(lab_disk_done $1))"
	return 1
}
_lab_disk_past() { [ "$(lab_disk_done $1)" -gt "$2" ]; }

# lab_path_iser_target_up [NLUNS]: the iSCSI/iSER target
# (lab_iser_target_up) plus iSER portals on both paths' target ends.
lab_path_iser_target_up() {
	local tpg=$CFS/iscsi/$ISER_IQN/tpgt_1 p np
	lab_path_up || return 1
	lab_iser_target_up "${1:-2}" || return 1
	for p in 0 1; do
		np=$tpg/np/${PATH_IPT[p]}:3260
		[ -e $np/iser ] && continue
		mkdir -p $np || return 1
		echo 1 > $np/iser || return 1
	done
}
