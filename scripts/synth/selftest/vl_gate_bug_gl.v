// Self-test fixture: the netlist shape that Verilator 5.006 simulates wrongly with its gate
// optimisation on (V3Gate): bits of output y_o feed other bits of y_o through alias wires,
// as in yosys netlists. With plain -O2 the model keeps stale values of y_o[2] after an input
// change (a_i 0 -> 8 gives y_o = 0, not 4). glcheck.sh builds with -fno-gate; this pair must pass.
module vl_gate_bug_gl(a_i, y_o);
  input [3:0] a_i;
  output [2:0] y_o;
  wire c0_Y, c1_A, c1_B, c1_Y, c2_A, c2_B, c2_Y;
  assign c0_Y = ~(~(a_i[0] | a_i[1]) | a_i[2]);
  assign y_o[0] = c0_Y;
  assign c1_A = a_i[3];
  assign c1_B = y_o[0];
  assign c1_Y = ~(c1_A | c1_B);
  assign y_o[1] = c1_Y;
  assign c2_A = y_o[0];
  assign c2_B = y_o[1];
  assign c2_Y = ~(c2_A | c2_B);
  assign y_o[2] = c2_Y;
endmodule
