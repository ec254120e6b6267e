set terminal pngcairo size 1100,620 font "sans,10"
set output 'figure4-ratios.png'
set title "Figure 4: Memory per idle connection"
set logscale y
set ylabel "ours / Redis or baseline (x)"
set style fill solid 0.5
set boxwidth 0.6
set xtics rotate by -25 left noenhanced
set bmargin 9
set grid ytics
set xrange [-0.6:0.6]
plot 'figure4-ratios.dat' using 0:2:xtic(1) with boxes title "measured", \
     '' using 0:3 with points pointtype 9 pointsize 2.5 title "target", \
     1 with lines dashtype 2 linecolor "gray" title "1x"
