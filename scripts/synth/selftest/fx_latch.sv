// Self-test fixture: infers a latch (incomplete assignment); synth.sh must fail it.
module fx_latch (input logic en_i, input logic [3:0] d_i, output logic [3:0] q_o);
  always @* if (en_i) q_o = d_i;
endmodule
