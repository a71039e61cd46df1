"""``python -m tussle`` runs the command line, like the ``tussle`` script."""

from tussle.cli import main

if __name__ == "__main__":
    main()
