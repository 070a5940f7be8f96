// Self-test fixture: reads a net nothing drives; synth.sh must fail it.
`default_nettype none
module fx_nodriver (input wire logic [3:0] a_i, output logic [3:0] y_o);
  logic [3:0] t;
  assign y_o = a_i ^ t;
endmodule
`default_nettype wire
