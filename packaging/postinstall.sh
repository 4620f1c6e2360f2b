#!/bin/sh
# agentjail's package changes nothing in any user's home: each user wires
# it into their agents themselves.
set -e
echo "agentjail is installed. Each user runs: agentjail install"
echo "For a guard the agents' users cannot switch off: sudo agentjail install --system"
