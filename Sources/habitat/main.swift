import HabitatCLI

HabitatCommand.start()
