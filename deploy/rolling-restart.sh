#!/bin/sh
# A rolling restart of this machine's cardtable processes, one at a time (docs/deploy.md,
# "Upgrades"): for each UNIT=ADDRESS, `systemctl restart UNIT` (SIGTERM: the process turns
# unready, serves --drain seconds more, hands its tables over and exits; systemd waits for
# the exit, then starts the new one), then wait until http://ADDRESS/readyz answers 200
# before the next. Stops at the first process that is not ready within $READY_WITHIN s.
#
#   deploy/rolling-restart.sh cardtable@1=10.0.0.11:8001 cardtable@2=10.0.0.11:8002
set -eu
systemctl=${SYSTEMCTL:-systemctl}
within=${READY_WITHIN:-60}
for item in "$@"; do
  unit=${item%%=*}
  address=${item#*=}
  echo "restarting $unit"
  $systemctl restart "$unit"
  waited=0
  until curl -fs -o /dev/null "http://$address/readyz"; do
    waited=$((waited + 1))
    if [ "$waited" -ge "$within" ]; then
      echo "$unit is not ready at http://$address/readyz after ${within} s: stopping here" >&2
      exit 1
    fi
    sleep 1
  done
  echo "$unit ready"
done
