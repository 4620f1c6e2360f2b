#!/bin/sh
# Removing the package leaves users' files alone (~/.agentjail, their
# agents' settings). A user's `agentjail install` copied the binaries
# into ~/.agentjail/bin, so their guard keeps running; system mode
# copied them under /usr/local/libexec. Say how to take either away.
set -e
if [ -e /etc/agentjail/installed.json ]; then
  echo "agentjail system mode stays in force (its own copy of the binaries is in /usr/local/libexec/agentjail); to remove it: sudo /usr/local/libexec/agentjail/agentjail uninstall --system"
fi
echo "Each user's own install stays (its copy is in ~/.agentjail/bin); to remove it: ~/.agentjail/bin/agentjail uninstall (--purge also removes ~/.agentjail)"
