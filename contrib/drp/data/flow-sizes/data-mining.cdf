# Flow sizes of the data-mining workload (VL2: A. Greenberg et al., "VL2: A
# Scalable and Flexible Data Center Network", ACM SIGCOMM 2009), as
# datacenter/empirical-traffic-gen's VL2_CDF gives it
# (github.com/datacenter/empirical-traffic-gen). Other simulators carry other
# digitisations of the same figure (pFabric's CDF_datamining.txt has a mean of
# about 7.5 MB, Opera's datamining.csv about 5.0 MB): name the file when you
# report results.
#
# Format: one point per line, "bytes probability": the probability that a
# flow is at most that many bytes. Sizes and probabilities never decrease;
# the last probability is 1. Between points sizes are interpolated linearly.
# Mean (piecewise linear): about 12.66 MB; 2 % of flows exceed 100 MB.
0 0
180 0.1
216 0.2
560 0.3
900 0.4
1100 0.5
1870 0.6
3160 0.7
10000 0.8
400000 0.9
3160000 0.95
100000000 0.98
1000000000 1
