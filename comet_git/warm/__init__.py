"""The warm process: `comet task` and `comet agent-hook` answered by a process that is already up.

A `comet task` at 10,000 records spends some 15 ms starting Python, 30-40 ms importing comet and
40 ms finding the memory; an agent calls it (or a hook) at every prompt and task.  A process
that stays up a while pays the imports once: the console script (client.py) hands its arguments,
folder and stdin to it over a Unix socket and writes back what it answers.  Where there is none,
the call runs in its own process as before and starts one in the background for the next call;
it leaves by itself after ten idle minutes, and any doubt (another environment, an interpreter or
a comet installed since, a folder that others could write, a late or broken answer) means the call
runs in its own process.  `COMET_WARM=0` turns it off.

address.py: where it listens and what the two sides say (standard library, cheap: every call
imports it); client.py: the console script's side; server.py: the process itself.
"""
