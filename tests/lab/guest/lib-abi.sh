# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Our modules' files in sysfs and debugfs against docs/ABI (/lab/ABI in the
# guest): one What line per file, a "<...>" standing for one part of a path.

# lab_abi_files DIR...: the regular files directly in each DIR (sysfs
# attributes; uevent is the driver core's), one path a line.
lab_abi_files() {
	local d f
	for d in "$@"; do
		for f in "$d"/*; do
			[ -f "$f" ] && [ "${f##*/}" != uevent ] && echo "$f"
		done
	done
}

# lab_abi_check WHAT FILE...: each FILE matches a What line of /lab/ABI,
# and each What line that matches the extended regex WHAT (the entries of
# what is loaded and logged in) matches one of the FILEs.
# Prints every file without an entry and every entry without a file.
lab_abi_check() {
	local want=$1
	shift
	printf '%s\n' "$@" | awk -v want="$want" '
	NR == FNR {
		w[++nw] = $0
		re = $0
		gsub(/\./, "\\.", re)
		gsub(/<[^>]*>/, "[^/]+", re)
		r[nw] = "^" re "$"
		next
	}
	$0 != "" {
		n++
		for (i = 1; i <= nw; i++)
			if ($0 ~ r[i]) { seen[i] = 1; next }
		print "no entry in docs/ABI for " $0
		bad = 1
	}
	END {
		for (i = 1; i <= nw; i++)
			if (w[i] ~ want && !seen[i]) {
				print "docs/ABI has " w[i] ", which no file matches"
				bad = 1
			}
		print n " files against " nw " entries of docs/ABI"
		exit bad
	}' <(sed -n 's/^What:[[:space:]]*//p' /lab/ABI/testing/*) -
}
