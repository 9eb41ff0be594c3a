import TipcatCLI

TipcatCommand.main()
