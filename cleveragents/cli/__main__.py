from cleveragents.cli.main import main

main()
