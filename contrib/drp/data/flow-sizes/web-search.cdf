# Flow sizes of the web-search workload (DCTCP: M. Alizadeh et al., "Data
# Center TCP (DCTCP)", ACM SIGCOMM 2010), as the field's simulators
# use it: HPCC's traffic_gen/WebSearch_distribution.txt
# (github.com/alibaba-edu/High-Precision-Congestion-Control), whose percentages
# are given here as probabilities; datacenter/empirical-traffic-gen's DCTCP_CDF
# holds the same points.
#
# Format: one point per line, "bytes probability": the probability that a
# flow is at most that many bytes. Sizes and probabilities never decrease;
# the last probability is 1. Between points sizes are interpolated linearly.
# Mean (piecewise linear): 1,711,250 bytes.
0 0
10000 0.15
20000 0.20
30000 0.30
50000 0.40
80000 0.53
200000 0.60
1000000 0.70
2000000 0.80
5000000 0.90
10000000 0.97
30000000 1
