import HabitatCLI
