set terminal pngcairo size 1100,620 font "sans,10"
set output 'figure7-latency.png'
set title "Figure 7: One command as a whole process"
set logscale xy
set format y "10^{%L}"
set xlabel "latency (ms)"
set ylabel "fraction of samples slower"
set grid
set key outside right top
plot 'figure7-latency-1.dat' using 1:2 with linespoints pointsize 0.6 title "todo add x", \
     'figure7-latency-2.dat' using 1:2 with linespoints pointsize 0.6 title "redis-cli SET"
