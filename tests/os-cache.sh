# os-cache.sh - sourced by the memory tests: what the OS says about the
# data caches, as the truth to check the probes against.  Only tests read
# the OS; the probes measure.  os_cache LEVEL FIELD prints size (bytes),
# ways or line (bytes) of the data or unified cache at LEVEL, or nothing.
os_cache() {
  for d in /sys/devices/system/cpu/cpu0/cache/index*; do
    [ -r "$d/level" ] || continue
    [ "$(cat "$d/level")" = "$1" ] || continue
    case $(cat "$d/type") in Data|Unified) ;; *) continue ;; esac
    case $2 in
      size) awk '{ v = $1 + 0; if ($1 ~ /K$/) v *= 1024
                   if ($1 ~ /M$/) v *= 1048576; print v }' "$d/size" ;;
      ways) cat "$d/ways_of_associativity" ;;
      line) cat "$d/coherency_line_size" ;;
    esac
    return 0
  done
}
