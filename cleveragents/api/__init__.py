"""The Python API: the engine called in-process on the messages and texts a program holds."""
