import HabitatCLI

HabitatCommand.main()
