"""`python -m sandbox [--port N]`: the same as `saboteur-bot sandbox`."""

from sandbox.server import main

if __name__ == "__main__":
    main()
