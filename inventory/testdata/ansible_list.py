# ansible_list.py SOURCE... runs `ansible-inventory -i SOURCE --list` for
# each SOURCE, the way the ansible-inventory command does, but imports
# Ansible once: each run is a fork of this process, so that every run
# starts from Ansible's fresh global state (its CLI arguments are a
# process-wide singleton). It writes one JSON line per source:
# {"src": SOURCE, "rc": EXIT_CODE, "out": STDOUT}. Warnings and errors go
# to stderr. TestConformanceWithAnsible runs it with the interpreter of
# the ansible-inventory on PATH and checks it against that command.
import json
import os
import sys

from ansible.cli.inventory import InventoryCLI

for src in sys.argv[1:]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        try:
            rc = InventoryCLI(['ansible-inventory', '-i', src, '--list']).run()
        except SystemExit as e:
            rc = e.code
        except BaseException as e:  # what ansible-inventory prints as ERROR!
            sys.stderr.write('ERROR! %s: %s\n' % (src, e))
            rc = 1
        sys.stdout.flush()
        os._exit(rc if isinstance(rc, int) else 1)
    os.close(w)
    with os.fdopen(r) as f:
        out = f.read()
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(json.dumps({'src': src, 'rc': os.waitstatus_to_exitcode(status), 'out': out}) + '\n')
    sys.stdout.flush()
