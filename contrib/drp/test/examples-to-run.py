#! /usr/bin/env python3
# A list of C++ examples to run in order to ensure that they remain
# buildable and runnable over time (ns-3's test.py reads this file).
#
# ("example_name", "do_run", "do_valgrind_run")
cpp_examples = [
    ("rnic-first", "True", "True"),
    ("rnic-first --method=traditional --frp=0.5", "True", "False"),
    ("rnic-first --method=dynamic --frp=0.5 --lfp=0.05", "True", "False"),
    ("rnic-first --etherType=0x88B5 --lfp=0.05 --ping=1", "True", "False"),
    ("rnic-fabric --topology=star --hosts=9 --workload=incast --queue=8p", "True", "False"),
    ("rnic-fabric --topology=fat-tree --k=4 --workload=permutation --bytes=100000", "True", "False"),
    ("drp-frame-cost --frames=2000 --repeat=1", "True", "False"),
    ("drp-fabric-scale --hosts=16 --flows=300", "True", "False"),
    ("pfc-pause", "True", "False"),
    (
        "drp-line-rate --rates=100Gbps --payloads=4096 --size=1000000 --smallTransfers=20",
        "True",
        "False",
    ),
    ("rnic-first --nic=100g-pcie3x16", "True", "False"),
    ("rdma-verbs", "True", "True"),
    ("rdma-verbs --method=traditional --frp=0.5", "True", "False"),
    ("rdma-verbs --method=roce", "True", "True"),
    ("rdma-cm-rpc", "True", "True"),
    ("rdma-cm-rpc --method=roce --calls=3", "True", "False"),
    ("rdma-kv-get", "True", "True"),
    ("rdma-kv-get --method=roce --gets=8", "True", "False"),
    ("ib-perftest --method=roce --test=write_bw --iterations=100", "True", "False"),
    ("ib-perftest --method=roce --test=atomic_lat --iterations=100", "True", "False"),
    ("rdma-cm-rpc --method=traditional --calls=3 --reply=100000", "True", "False"),
    ("ib-perftest --test=send_bw --iterations=100", "True", "False"),
    ("ib-perftest --test=write_lat --size=4096 --iterations=100", "True", "False"),
    ("ib-perftest --test=atomic_lat --iterations=100", "True", "False"),
]

# ("example_name", "do_run")
python_examples = []
