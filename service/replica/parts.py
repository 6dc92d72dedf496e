"""What the replica itself adds: liveness and readiness, the garbage collector's tuning,
and stopping without dropping anything on SIGTERM. (With DEBUG_GC=1, the collector's
report is a route the app serves last: service.app. The metrics are served apart from the
API, by `python -m service` itself: service.replica.exposition.)"""

from dataclasses import dataclass

from service.events.streams import Hub
from service.parts import Part, Provided
from service.replica.collector import Collector
from service.replica.health import HealthController
from service.replica.shutdown import Drain
from service.store import Store


@dataclass(frozen=True)
class ReplicaParts:
    drain: Drain
    collector: Collector

    @staticmethod
    def build(hub: Hub) -> "ReplicaParts":
        # Modules, routes and schemas live as long as the process, and so do open streams:
        # keeping them out of the collector's way shortens every full collection, hence
        # the latency tail (service/replica/collector.py).
        return ReplicaParts(Drain(hub), Collector())

    def part(self, store: Store) -> Part:
        return Part(routes=[HealthController],
                    provides={"drain": Provided(self.drain, after="hub"),
                              "store": Provided(store)},
                    start=[self.collector.start, self.drain.install],
                    stop=[self.collector.stop])
