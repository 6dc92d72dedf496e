"""The rated queue: players of close ratings seated together, across replicas."""
