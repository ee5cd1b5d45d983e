# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The Debian packages, installed as an administrator would: apt-get install
# of rdma-initiators-modules-<kver> (the lab kernel's binary module package,
# built on the host by "tools/make-deb --chroot --modules-for <kver>": DKMS
# in a chroot, as it would build on a host) and rdma-initiators-tools, from
# /lab/deb. Checks that the modules come from the package and modprobe
# loads them (build IDs and version against what was packaged), a login and
# fio verify, that srp-discover.service is not enabled on installation and
# logs in to the lab target by itself once configured, and that
# "apt-get purge" leaves the in-tree modules loadable and nothing of ours
# behind (no package state, no file: a listing of the root file system
# before installation is compared with one after the purge).
#
# PKG_MODE=dkms (default modules; tests/run-all --long, or
# LAB_ENV=PKG_MODE=dkms tests/lab/run --timeout 5400 pkg_install) installs
# rdma-initiators-dkms instead and lets DKMS build the modules in the guest
# (about 7 min of guest time against 2): the compiler, dkms and
# linux-headers-<kver> come from /lab/deb/deps (tests/lab/build-debs) and
# are installed first, as the administrator's "apt install
# linux-headers-$(uname -r)" would.
#
# The lab's own copies of our modules (guest/init.sh puts them in updates/
# for DRIVER=ours) are removed first: the guest starts as a host that never
# had them. The guest's PID 1 is the lab's init, not systemd: the unit's
# ConditionPathExists, ExecStartPre and ExecStart lines are read from the
# installed unit and run as systemd runs them, and "systemctl enable" is
# the link it makes (multi-user.target.wants, from WantedBy).
#
# Checks named "smoke: ..." have not been seen failing against a package
# broken on purpose (docs/install.md, "How this is tested"): they say the
# step ran, and claim nothing more (issue 33, item 8).
#
# The module package is built for Debian's kernel from its headers package;
# the debug lab kernel has neither a headers package nor a module package,
# and what this scenario checks is the packaging, not the drivers, which
# the other scenarios exercise there:
# lab-kernels: debian
# lab-drivers: ours
# lab-boot: pkg
# lab-timeout: 600
# lab-long: PKG_MODE=dkms
. /lab/lib-srp.sh
. /lab/lib-tools.sh

DEBS=/lab/deb
KVER=$(uname -r)
MODE=${PKG_MODE:-modules}
MODPKG=rdma-initiators-modules-$KVER
[ "$MODE" = dkms ] && MODPKG=rdma-initiators-dkms
UNIT=/lib/systemd/system/srp-discover.service
WANTS=/etc/systemd/system/multi-user.target.wants/srp-discover.service

# root_listing: every path of the root file system but the volatile ones
# (logs, apt and dpkg state, caches), the lab's own, DKMS's machine
# signing key (DKMS's, kept for every later build) and multipath-tools'
# record of the disks it has seen (/etc/multipath/wwids: its udev rules
# write it for any new SCSI disk), sorted.
root_listing() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run \
		-o -path /tmp -o -path /lab -o -path /var/log -o -path /var/cache \
		-o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /root \
		-o -path '/var/lib/dkms/mok.*' -o -path /etc/multipath \) -prune -o -print | sort
}

# dkms_file MOD: the file DKMS installed for MOD (compressed as the
# kernel's own modules are: .ko.xz on trixie's 6.12, .ko on bookworm's 6.1).
dkms_file() {
	ls /lib/modules/$KVER/updates/dkms/$1.ko /lib/modules/$KVER/updates/dkms/$1.ko.* 2>/dev/null | head -1
}

# file_build_id KO: the GNU build ID in the ELF note section of KO
# (decompressed first if it is a .ko.xz).
file_build_id() {
	python3 - "$1" <<'PY'
import lzma, struct, sys
d = open(sys.argv[1], "rb").read()
if sys.argv[1].endswith(".xz"):
    d = lzma.decompress(d)
shoff, = struct.unpack_from("<Q", d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
def sh(i):
    return struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    h = sh(i)
    name = d[stroff + h[0]:d.index(b"\0", stroff + h[0])]
    if name == b".note.gnu.build-id":
        namesz, descsz = struct.unpack_from("<II", d, h[4])
        off = h[4] + 12 + ((namesz + 3) & ~3)
        print(d[off:off + descsz].hex())
PY
}

# packaged_build_id MOD: its build ID as read on the host from the
# package (PKG_MODE=modules), or from the file DKMS installed (dkms).
packaged_build_id() {
	if [ "$MODE" = dkms ]; then
		file_build_id "$(dkms_file $1)"
	else
		awk -v m="$1" '$1 == m { print $2 }' $DEBS/build-ids
	fi
}

# loaded_is_packaged MOD: the loaded MOD is the packaged build.
loaded_is_packaged() {
	local want got
	want=$(packaged_build_id "$1")
	got=$(lab_loaded_build_id "$1")
	echo "$1: loaded build ID '$got', packaged '$want'"
	[ -n "$want" ] && [ "$got" = "$want" ]
}

# loaded_is_intree MOD: the loaded MOD is not a packaged build and came
# from the kernel's own directory.
loaded_is_intree() {
	local got
	got=$(lab_loaded_build_id "$1")
	echo "$1: loaded build ID '$got' from $(modinfo -F filename "$1"), packaged '$(packaged_build_id "$1")'"
	[ -n "$got" ] && ! grep -q " $got\$" $DEBS/build-ids /tmp/pkg-build-ids &&
		modinfo -F filename "$1" | grep -q "^/lib/modules/$KVER/kernel/"
}

# unit_value KEY: the value of KEY= in the installed unit (first one).
unit_value() { sed -n "s/^$1=//p" $UNIT | head -1; }

# unit_enable: what "systemctl enable srp-discover" does: a link in the
# .wants directory of each [Install] WantedBy target.
unit_enable() {
	local t
	t=$(unit_value WantedBy)
	[ -n "$t" ] || { echo "no WantedBy"; return 1; }
	mkdir -p /etc/systemd/system/$t.wants
	ln -s $UNIT /etc/systemd/system/$t.wants/srp-discover.service
	test "$(readlink $WANTS)" = $UNIT
}

# unit_start: what systemd does on "systemctl start srp-discover": the
# condition, ExecStartPre ("-" = failure ignored), ExecStart in the
# background; its PID in $svc_pid.
unit_start() {
	local cond pre cmd
	cond=$(unit_value ConditionPathExists)
	[ -z "$cond" ] || [ -e "$cond" ] || { echo "condition $cond not met"; return 1; }
	pre=$(unit_value ExecStartPre)
	if [ -n "$pre" ]; then
		case $pre in
		-*) ${pre#-} || true ;;
		*) $pre || return 1 ;;
		esac
	fi
	cmd=$(unit_value ExecStart)
	[ -n "$cmd" ] || { echo "no ExecStart"; return 1; }
	echo "ExecStart: $cmd"
	$cmd > $LAB_OUT/pkg-srp-discover.log 2>&1 &
	svc_pid=$!
}

cd /tmp		# fio writes its verify state file to the working directory

# The module package is built for the lab's Debian kernel: on another one
# (the debug lab kernel) there is nothing to install; say so once.
if [ "$MODE" = modules ] && ! ls $DEBS/${MODPKG}_*.deb >/dev/null 2>&1; then
	fail "a module package for the running kernel $KVER" \
		"/lab/deb has $(cd $DEBS && ls rdma-initiators-modules-*.deb 2>/dev/null | tr '\n' ' ')"
	return 0 2>/dev/null || exit 0
fi

# A host that never had our modules.
for m in ib_srp ib_iser rdi_core; do
	modprobe -r $m 2>/dev/null
	rm -f /lib/modules/$KVER/updates/$m.ko
done
depmod -a
if [ "$MODE" = dkms ]; then
	# What the administrator installs first: DKMS, the compiler, the
	# running kernel's headers.
	check "dkms mode: apt-get install dkms linux-headers-$KVER (from /lab/deb/deps)" \
		env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $DEBS/deps/*.deb
fi
check "before: modprobe resolves the in-tree ib_srp" \
	sh -c "modinfo -F filename ib_srp | grep -q '^/lib/modules/$KVER/kernel/'"
root_listing > /tmp/pkg-before
modpkg_deb=$(ls $DEBS/${MODPKG}_*.deb 2>/dev/null | head -1)
: > /tmp/pkg-build-ids
tools_deb=$(ls $DEBS/rdma-initiators-tools_*.deb 2>/dev/null | grep -v dbgsym | head -1)
check "smoke: payload has $MODPKG and rdma-initiators-tools" test -n "$modpkg_deb" -a -n "$tools_deb"
version=$(cat $DEBS/version)
echo "packages: $modpkg_deb $tools_deb (version $version)"

check "apt-get install ./$MODPKG ./rdma-initiators-tools" \
	env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$modpkg_deb" "$tools_deb"
if [ "$MODE" = dkms ]; then
	dkms status
	check "dkms status: rdma-initiators/$version installed for $KVER" \
		sh -c "dkms status rdma-initiators/$version -k $KVER | grep -q ': installed'"
fi
for m in rdi_core ib_srp ib_iser; do
	f=$(dkms_file $m)
	if [ "$MODE" = dkms ]; then
		check "$m: ${f:-updates/dkms/$m.ko*} installed by DKMS" test -f "$f"
		echo "$m $(file_build_id $f)" >> /tmp/pkg-build-ids
	else
		check "$m: ${f:-updates/dkms/$m.ko*} installed, owned by $MODPKG" \
			sh -c "test -f $f && dpkg -S $f | grep -q '^$MODPKG:'"
	fi
	check "$m: modprobe resolves it to the package's file" \
		sh -c "[ \"\$(modinfo -F filename $m)\" = $f ]"
done
check "smoke: tools installed: srp-discover, rdi-status, man pages" \
	sh -c "test -x /usr/sbin/srp-discover && test -x /usr/sbin/rdi-status &&
	       dpkg -L rdma-initiators-tools | grep -q 'man8/srp-discover.8.gz' &&
	       dpkg -L rdma-initiators-tools | grep -q 'man8/rdi-status.8.gz'"
check "smoke: /etc/rdi/srp-discover.conf is a conffile" \
	sh -c "dpkg-query -W -f='\${Conffiles}' rdma-initiators-tools | grep -q ' /etc/rdi/srp-discover.conf '"
check "srp-discover.service installed, not enabled" sh -c "test -f $UNIT && test ! -L $WANTS"

lab_log_mark
check "smoke: modprobe ib_srp" modprobe ib_srp
for m in ib_srp rdi_core; do
	check "$m: the loaded module is the packaged build (build ID)" loaded_is_packaged $m
done
check "ib_srp: version is the package's ($version)" \
	sh -c "[ \"\$(cat /sys/module/ib_srp/version)\" = '$version' ]"
check "smoke: modprobe ib_iser" modprobe ib_iser
check "ib_iser: the loaded module is the packaged build (build ID)" loaded_is_packaged ib_iser

lab_srpt_up 2
h=$(lab_srp_login 0) && pass "login over RDMA/CM with the packaged ib_srp" ||
	fail "login over RDMA/CM with the packaged ib_srp"
srp_wait_disks "$h" 2
d=$(lab_host_disks "$h" | head -1)
check "fio verify on $d" lab_fio_verify "$d"
check "logout" srp_logout "$h"

# The administrator names the target and starts the service.
echo "peer $IP0" >> /etc/rdi/srp-discover.conf
check "systemctl enable: the unit's WantedBy link" unit_enable
# Not through check: its command substitution is a subshell, and the
# service's PID must reach this shell.
if unit_start > /tmp/pkg-unit-start 2>&1; then
	pass "smoke: srp-discover.service starts (condition, ExecStartPre, ExecStart)"
else
	fail "smoke: srp-discover.service starts (condition, ExecStartPre, ExecStart)"
fi
cat /tmp/pkg-unit-start
check "srp-discover.service logs in to $IP0 by itself" lab_wait 60 tools_has_host_on $RXE0
h=$(tools_host_on $RXE0 | head -1)
check "the service's login is to the lab target" \
	test "$(cat /sys/class/scsi_host/host$h/id_ext 2>/dev/null)" = "0x$(srpt_guid)"
kill "${svc_pid:-}" 2>/dev/null
wait "${svc_pid:-}"
check "srp-discover.service stops on SIGTERM (status 0)" test $? -eq 0
cat $LAB_OUT/pkg-srp-discover.log
check "smoke: logout of the service's login" srp_logout_all
for m in ib_iser ib_srp rdi_core; do
	lab_unload $m
done

check "apt-get purge rdma-initiators-tools $MODPKG" \
	env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q rdma-initiators-tools "$MODPKG"
# dpkg -l: "un" is a name dpkg knows without files or configuration.
check "purge: no package state left (dpkg -l)" \
	sh -c "! dpkg -l 'rdma-initiators*' 2>/dev/null | grep -E '^[a-z][a-zA-Z] ' | grep -v '^un '"
# Dangling once the unit is gone: -e alone would not see it.
check "purge: the systemctl enable link is gone" sh -c "test ! -L $WANTS && test ! -e $WANTS"
root_listing > /tmp/pkg-after
# Only what is there now and was not before counts: dpkg also removes the
# directories it shared and left empty (updates/ when nothing else is in it).
comm -13 /tmp/pkg-before /tmp/pkg-after > /tmp/pkg-left
comm -23 /tmp/pkg-before /tmp/pkg-after | sed 's/^/gone since installation (empty directory): /'
check "purge: no file of ours left (no path that was not there before installation)" \
	sh -c 'cat /tmp/pkg-left; ! test -s /tmp/pkg-left'
for m in ib_srp ib_iser; do
	check "$m: after purge modprobe loads the in-tree module" modprobe $m
	check "$m: after purge the loaded module is the in-tree one" loaded_is_intree $m
	check "smoke: $m: unloads" modprobe -r $m
done
