"""What every replica runs beside its requests: background loops and the bells that
wake them across replicas, liveness and readiness, metrics and the access log, the
garbage collector's tuning, and stopping without dropping anything on SIGTERM."""
