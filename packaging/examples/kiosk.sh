#!/bin/sh
# A kiosk overlay: "slide to cancel" in the bottom-right corner for a minute. The slide
# cancels the job; a timeout (exit 4) lets it run.
job_pid=${1:?usage: kiosk.sh PID-OF-THE-JOB}
slidegate --geometry 600x80-20-20 --text "slide to cancel" --timeout 60
case $? in
  0) kill "$job_pid" && echo "cancelled" ;;
  4) echo "not cancelled; the job goes on" ;;
  *) echo "slidegate failed; the job goes on" >&2 ;;
esac
