# The pexpect anchor, driven one step at a time so the bench can interleave it with its other
# rows: each line on stdin names a step ("spawn", "exec"), each answer is that step's time in
# ms as pexpect's user sees it (measured here, around the pexpect calls alone).
import os, sys, time
import pexpect

env = dict(os.environ, PS1="PX$ ", HOME=os.environ.get("HOME", "/tmp"))
shell = None
for line in sys.stdin:
    step = line.strip()
    t = time.perf_counter()
    if step == "spawn":
        if shell is not None:
            shell.close(force=True)
        shell = pexpect.spawn("bash", ["--norc", "--noprofile"], env=env, encoding="utf-8", dimensions=(40, 120))
        shell.delaybeforesend = None  # pexpect sleeps 50 ms before each send by default; its fast users turn that off
        shell.expect_exact("PX$ ", timeout=10)
    elif step == "exec":
        shell.sendline("true")
        shell.expect_exact("PX$ ", timeout=10)
    else:
        print(f"unknown step {step}", flush=True)
        continue
    print(f"{(time.perf_counter() - t) * 1000:.4f}", flush=True)
if shell is not None:
    shell.close(force=True)
