#!/bin/sh
# check-potfiles.sh SRCDIR -- po/POTFILES.in lists every file with
# translatable strings (C files calling _(), N_(), C_(), NC_(), g_dngettext()
# or ngettext(); .ui files with translatable="yes"), and nothing that does
# not exist.
set -u
root=${1:?usage: check-potfiles.sh SRCDIR}
cd "$root" || exit 2
status=0
listed=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' po/POTFILES.in)

for f in $listed; do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in lists $f, which does not exist"
    status=1
  fi
done

candidates=$( (grep -lE '(^|[^A-Za-z0-9_])(N_|_|C_|NC_|g_dngettext|ngettext)\(' $(find src -name '*.c' -o -name '*.h' | sort) 2>/dev/null;
               grep -l 'translatable="yes"' $(find resources -name '*.ui' | sort) 2>/dev/null) )
for f in $candidates; do
  if ! printf '%s\n' "$listed" | grep -qxF "$f"; then
    echo "$f has translatable strings but is missing from po/POTFILES.in"
    status=1
  fi
done

[ $status -eq 0 ] && echo "po/POTFILES.in is complete ($(printf '%s\n' "$listed" | wc -l) files)"
exit $status
