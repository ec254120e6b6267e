set terminal pngcairo size 1100,620 font "sans,10"
set output 'figure13-latency.png'
set title "Figure 13: Fan-out through the web gateway at one dispatch every 1 ms"
set logscale xy
set format y "10^{%L}"
set xlabel "latency (ms)"
set ylabel "fraction of samples slower"
set grid
set key outside right top
plot 'figure13-latency-1.dat' using 1:2 with linespoints pointsize 0.6 title "gateway, 100 WebSocket subscribers", \
     'figure13-latency-2.dat' using 1:2 with linespoints pointsize 0.6 title "todod, 100 raw subscribers"
