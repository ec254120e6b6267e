set terminal pngcairo size 1100,620 font "sans,10"
set output 'figure9-latency.png'
set title "Figure 9: Cross-host latency on a shared log, 100 dispatches/s"
set logscale xy
set format y "10^{%L}"
set xlabel "latency (ms)"
set ylabel "fraction of samples slower"
set grid
set key outside right top
plot 'figure9-latency-1.dat' using 1:2 with linespoints pointsize 0.6 title "subscriber on another host", \
     'figure9-latency-2.dat' using 1:2 with linespoints pointsize 0.6 title "subscriber on the same host", \
     'figure9-latency-3.dat' using 1:2 with linespoints pointsize 0.6 title "dispatch to ack", \
     'figure9-latency-4.dat' using 1:2 with linespoints pointsize 0.6 title "ack to update on another host"
