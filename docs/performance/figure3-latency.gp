set terminal pngcairo size 1100,620 font "sans,10"
set output 'figure3-latency.png'
set title "Figure 3: Fan-out latency at one dispatch every 1 ms"
set logscale xy
set format y "10^{%L}"
set xlabel "latency (ms)"
set ylabel "fraction of samples slower"
set grid
set key outside right top
plot 'figure3-latency-1.dat' using 1:2 with linespoints pointsize 0.6 title "todod, 100 SyncClient subscribers", \
     'figure3-latency-2.dat' using 1:2 with linespoints pointsize 0.6 title "todod, 1000 SyncClient subscribers", \
     'figure3-latency-3.dat' using 1:2 with linespoints pointsize 0.6 title "todod, 100 raw, round 1", \
     'figure3-latency-4.dat' using 1:2 with linespoints pointsize 0.6 title "todod, 100 raw, round 2", \
     'figure3-latency-5.dat' using 1:2 with linespoints pointsize 0.6 title "todod, 100 raw, round 3", \
     'figure3-latency-6.dat' using 1:2 with linespoints pointsize 0.6 title "Redis, 100 threads", \
     'figure3-latency-7.dat' using 1:2 with linespoints pointsize 0.6 title "Redis, 100 one thread", \
     'figure3-latency-8.dat' using 1:2 with linespoints pointsize 0.6 title "fsync (4 KiB + fdatasync)"
