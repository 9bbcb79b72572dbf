#!/bin/sh
# A "browser" that draws nothing (for the snapshot-unavailable error): reads its input forever.
exec cat
